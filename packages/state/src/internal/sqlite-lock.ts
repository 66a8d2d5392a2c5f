import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { ObeliskError } from "@obelisk/core";
import type { Database } from "better-sqlite3";
import type { LockHolder } from "../lock-holder.js";
import type { SqliteLockOptions } from "../sqlite-store-options.js";
import type { Clock } from "../store-options.js";
import {
  describeOwner,
  describeOwnerFromHere,
  heldByNoStoreHere,
  inThisProcess,
  type LockOwner,
  lockOwner,
  ownerData,
  ownerText,
  registerHolder,
  sameSpace,
} from "./sqlite-lock-owner.js";
import type { SqliteStatements } from "./sqlite-schema.js";
import { cancelledWait, LOCK_BUSY_HINT } from "./thread-locks.js";

interface LockRow {
  owner: string;
  host: string;
  pid: number;
  heartbeat_ms: number;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Why a held row may be taken over, or undefined; see {@link SqliteLock}. */
type Staleness = string | undefined;

/**
 * Cross-process thread locks in a `locks` table: a row (owner, host, pid, heartbeat) taken in an IMMEDIATE
 * transaction; the owner text names the worker thread and the store too (see {@link LockOwner}). A row is
 * taken over when its holder is known to be gone — a process of this host and pid namespace that is not
 * alive, or a row of
 * this very thread (same pid and worker thread) that no store of this thread holds (an earlier process
 * with this pid left it) — or its heartbeat is stale, also when that process is still alive (hung, or its
 * event loop blocked past `staleMs`; a pid may also have been reused). Another worker thread of this
 * process cannot be told dead from here (a terminated worker runs no exit handler): its row goes by its
 * heartbeat. The previous owner finds out at its next commit: {@link SqliteLock.assertOwned} refuses it
 * inside the commit's transaction, so a takeover never loses an update. Whom a row was taken over from is
 * answered to the store, which marks the runs that owner left `running` `interrupted` (decision 0025).
 * Limits: another host's (or another pid namespace's: a container with this host name) crashed owner is
 * detected only by heartbeat age; waiting polls the table.
 */
export class SqliteLock {
  /** This store's token (in its owner text and this thread's registry of holders). */
  private readonly token = randomUUID();
  private readonly owner = ownerText(this.token);
  private readonly beats = new Map<string, ReturnType<typeof setInterval>>();
  /**
   * Threads whose row a release failed to delete (the file write-locked by another program past the busy
   * timeout): deleted by a retried release or at close, unless this store took the row again meanwhile.
   */
  private readonly leftover = new Set<string>();
  /**
   * Takes the thread's row: `{ busy }` (its live owner) when another holds it, else whom it was taken over
   * from.
   */
  private readonly tryTake: (
    threadId: string,
  ) => { readonly busy: LockOwner } | { readonly busy?: undefined; readonly takeover: string | undefined };

  constructor(
    db: Database,
    private readonly statements: SqliteStatements,
    private readonly now: Clock,
    private readonly options: SqliteLockOptions = {},
  ) {
    this.tryTake = db.transaction((threadId: string) => {
      const row = statements.lockGet.get(threadId) as LockRow | undefined;
      const owner = row === undefined || row.owner === this.owner ? undefined : lockOwner(row);
      const stale =
        owner === undefined || row === undefined ? undefined : this.staleness(owner, row, threadId);
      if (owner !== undefined && stale === undefined) return { busy: owner };
      statements.lockPut.run(threadId, this.owner, hostname(), process.pid, this.now());
      return { takeover: owner === undefined ? undefined : `${describeOwner(owner)} (${stale})` };
    }).immediate;
  }

  /** Whether the holder is known to be gone (see {@link SqliteLock}), without the heartbeat. */
  private gone(owner: LockOwner, threadId: string): Staleness {
    // another machine, or another container with this host name (its pids are not ours): heartbeat only
    if (owner.host !== hostname() || !sameSpace(owner)) return undefined;
    if (owner.pid !== process.pid) return processAlive(owner.pid) ? undefined : "its process is gone";
    return heldByNoStoreHere(owner, threadId)
      ? "no store of its thread holds it: closed, or left by an earlier process with this pid"
      : undefined;
  }

  /** Why another owner's row may be taken over (its holder is gone, or its heartbeat is stale), or undefined. */
  private staleness(owner: LockOwner, row: LockRow, threadId: string): Staleness {
    const gone = this.gone(owner, threadId);
    if (gone !== undefined) return gone;
    const age = this.now() - row.heartbeat_ms;
    const staleMs = this.staleMs();
    return age > staleMs ? `no heartbeat for ${age} ms, over staleMs ${staleMs}` : undefined;
  }

  private staleMs(): number {
    return this.options.staleMs ?? 30_000;
  }

  /** Whether this store holds the thread's lock (its registry entry answers this for the thread's stores). */
  private holds(threadId: string): boolean {
    return this.beats.has(threadId);
  }

  /**
   * Takes the thread's row, polling up to `waitMs`; throws THREAD_BUSY (also when `signal` aborts the
   * wait). Answers whom the row was taken over from (`pid … on … (why)`), when it was another owner's.
   */
  async acquire(threadId: string, waitMs: number, signal?: AbortSignal): Promise<string | undefined> {
    const pollMs = this.options.pollMs ?? 25;
    let taken = this.tryTake(threadId);
    for (let waited = 0; taken.busy !== undefined; waited += pollMs) {
      if (signal?.aborted) throw cancelledWait(threadId);
      if (waited >= waitMs) throw this.busy(threadId, waitMs, taken.busy);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      taken = this.tryTake(threadId);
    }
    this.leftover.delete(threadId); // the row is this store's again, held
    const beat = setInterval(() => this.beat(threadId), this.options.heartbeatMs ?? 5_000);
    beat.unref?.();
    this.beats.set(threadId, beat);
    registerHolder(this.token, (id) => this.holds(id));
    return taken.takeover;
  }

  /**
   * THREAD_BUSY naming the holder as seen from here (another engine in this thread, a worker thread of this
   * process, another process) with the hint every lock wait gives, and the holder in `data.holder`.
   */
  private busy(threadId: string, waitMs: number, owner: LockOwner): ObeliskError {
    const worker = inThisProcess(owner) && owner.workerThreadId !== undefined && owner.workerThreadId !== 0;
    // a worker terminated while it held the lock runs no cleanup: its row waits for the heartbeat rule
    const note = worker
      ? `; a worker terminated while it held the lock keeps it until its heartbeat is ${this.staleMs()} ms old`
      : "";
    return new ObeliskError(
      "THREAD_BUSY",
      `thread "${threadId}" is locked by ${describeOwnerFromHere(owner)}${note}`,
      {
        data: { threadId, waitMs, holder: ownerData(owner) },
        hint: LOCK_BUSY_HINT,
      },
    );
  }

  /**
   * One heartbeat. A failure (the file write-locked by another program past the busy timeout, a disk
   * error) is skipped, never thrown out of the timer: the next beat tries again, and if the lock is taken
   * over as stale meanwhile, the next commit is refused ({@link assertOwned}).
   */
  private beat(threadId: string): void {
    try {
      this.statements.lockBeat.run(this.now(), threadId, this.owner);
    } catch {
      // skipped: see above
    }
  }

  /** True when this store took the thread's lock and its row is gone or another owner's (taken over as stale). */
  lost(threadId: string): boolean {
    return this.beats.has(threadId) && this.statements.lockOwned.get(threadId, this.owner) === undefined;
  }

  /**
   * Throws THREAD_BUSY when this store took the thread's lock and its row is gone or another owner's (taken
   * over as stale). Run inside the commit's transaction, so the answer holds for the commit.
   */
  assertOwned(threadId: string): void {
    if (!this.beats.has(threadId)) return;
    if (this.statements.lockOwned.get(threadId, this.owner) !== undefined) return;
    const row = this.statements.lockGet.get(threadId) as LockRow | undefined;
    const taker = row === undefined ? undefined : lockOwner(row);
    const who =
      taker === undefined ? "its lock row is gone" : `${describeOwnerFromHere(taker)} took the lock over`;
    throw new ObeliskError(
      "THREAD_BUSY",
      `thread "${threadId}" is no longer locked by this run (${who}): the commit was refused`,
      {
        data: { threadId, ...(taker === undefined ? {} : { holder: ownerData(taker) }) },
        hint: `a lock whose holder sends no heartbeat for ${this.staleMs()} ms (event loop blocked, process suspended) may be taken over`,
      },
    );
  }

  /**
   * Whether no live run can hold the thread (read-only, for runs found `running` on reading): undefined
   * when one may — this store holds the row, or another owner whose process is alive or on another host
   * (a stale heartbeat alone is left to a takeover: the process may be hung, not gone); `{ holder }` when
   * the row's owner is a process of this host that is gone; `{}` when there is no row, or a row of this
   * store that no lock of it holds (left behind).
   */
  goneHolder(threadId: string): { readonly holder?: string; readonly why?: string } | undefined {
    const row = this.statements.lockGet.get(threadId) as LockRow | undefined;
    if (row === undefined) return {};
    if (row.owner === this.owner) return this.beats.has(threadId) ? undefined : {};
    const owner = lockOwner(row);
    const why = this.gone(owner, threadId);
    return why === undefined ? undefined : { holder: describeOwner(owner), why };
  }

  /**
   * Who holds the thread's row (`StateStore.lockHolder`), only read: undefined when there is none or its
   * holder is known to be gone (see {@link gone}: it would be taken over at once); a stale heartbeat is
   * answered with its age (the process may be hung). This store's own row counts while it holds the lock.
   */
  holder(threadId: string): LockHolder | undefined {
    const row = this.statements.lockGet.get(threadId) as LockRow | undefined;
    if (row === undefined) return undefined;
    const owner = lockOwner(row);
    if (this.gone(owner, threadId) !== undefined) return undefined;
    return {
      ...ownerData(owner),
      heartbeatAt: new Date(row.heartbeat_ms).toISOString(),
      heartbeatAgeMs: this.now() - row.heartbeat_ms,
      staleMs: this.staleMs(),
    };
  }

  /** True when another store (connection, worker thread or process) holds the thread's row and it is not stale. */
  heldElsewhere(threadId: string): boolean {
    const row = this.statements.lockGet.get(threadId) as LockRow | undefined;
    if (row === undefined || row.owner === this.owner) return false;
    return this.staleness(lockOwner(row), row, threadId) === undefined;
  }

  /**
   * Throws THREAD_BUSY (naming the first such thread and its holder, `data.holder`) when a run may hold any
   * thread's row: this store's own held lock, or another owner's row that {@link acquire} would not take
   * over (its holder not known to be gone, its heartbeat not stale) — the rule `deleteThread` meets.
   */
  assertNoneHeld(action: string): void {
    for (const row of this.statements.lockAll.all() as (LockRow & { thread_id: string })[]) {
      const threadId = row.thread_id;
      const mine = row.owner === this.owner;
      if (mine ? !this.holds(threadId) : this.staleness(lockOwner(row), row, threadId) !== undefined)
        continue;
      const owner = lockOwner(row);
      const who = mine ? "this store (a run of this engine)" : describeOwnerFromHere(owner);
      throw new ObeliskError(
        "THREAD_BUSY",
        `thread "${threadId}" is locked by ${who}: cannot ${action} while a run holds a thread`,
        {
          data: { threadId, holder: ownerData(owner) },
          hint: "nothing was changed: run it again once the run has ended",
        },
      );
    }
  }

  /**
   * Releases the thread's row (only if this store owns it). The lock counts as released even when the
   * delete throws: no heartbeat keeps the row fresh, a store of this thread takes it over at once (see
   * {@link gone}), another process once it is `staleMs` old; the delete is tried again by the next release
   * of the thread and at close ({@link releaseAll}).
   */
  release(threadId: string): void {
    clearInterval(this.beats.get(threadId));
    this.beats.delete(threadId);
    if (this.beats.size === 0) registerHolder(this.token, undefined);
    this.leftover.add(threadId);
    this.statements.lockDelete.run(threadId, this.owner);
    this.leftover.delete(threadId);
  }

  /** Releases every row this store holds or failed to delete; throws the first failure after trying all. */
  releaseAll(): void {
    let failure: unknown;
    for (const threadId of new Set([...this.beats.keys(), ...this.leftover])) {
      try {
        this.release(threadId);
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
  }
}
