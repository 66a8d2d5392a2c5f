import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { ObeliskError } from "@obelisk/core";
import type { Database } from "better-sqlite3";
import type { Clock } from "../store-options.js";
import type { SqliteStatements } from "./sqlite-schema.js";
import { cancelledWait } from "./thread-locks.js";

/** Options of the cross-process lock. */
export interface SqliteLockOptions {
  /** Poll interval while waiting for another process's lock, ms. Default 25. */
  readonly pollMs?: number;
  /** Heartbeat interval of a held lock, ms. Default 5,000. */
  readonly heartbeatMs?: number;
  /** A lock whose heartbeat is older than this is taken over, ms. Default 30,000. */
  readonly staleMs?: number;
}

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

/**
 * Cross-process thread locks in a `locks` table: a row (owner, host, pid, heartbeat) taken in an IMMEDIATE
 * transaction. A row is taken over when its process is gone (same host) or its heartbeat is stale, also
 * when that process is still alive (hung, or its event loop blocked past `staleMs`; a pid may also have
 * been reused). The previous owner finds out at its next commit: {@link SqliteLock.assertOwned} refuses it
 * inside the commit's transaction, so a takeover never loses an update. Whom a row was taken over from is
 * answered to the store, which marks the runs that owner left `running` `interrupted` (decision 0025).
 * Limits: another host's crashed owner is detected only by heartbeat age; waiting polls the table.
 */
export class SqliteLock {
  private readonly owner = `${hostname()}:${process.pid}:${randomUUID()}`;
  private readonly beats = new Map<string, ReturnType<typeof setInterval>>();
  /** Takes the thread's row: false when another live owner holds it, else whom it was taken over from. */
  private readonly tryTake: (threadId: string) => false | { readonly takeover: string | undefined };

  constructor(
    db: Database,
    private readonly statements: SqliteStatements,
    private readonly now: Clock,
    private readonly options: SqliteLockOptions = {},
  ) {
    this.tryTake = db.transaction((threadId: string) => {
      const row = statements.lockGet.get(threadId) as LockRow | undefined;
      const stale = row === undefined || row.owner === this.owner ? undefined : this.staleness(row);
      if (row !== undefined && row.owner !== this.owner && stale === undefined) return false;
      statements.lockPut.run(threadId, this.owner, hostname(), process.pid, this.now());
      return { takeover: stale === undefined ? undefined : `pid ${row?.pid} on ${row?.host} (${stale})` };
    }).immediate;
  }

  /** Why another owner's row may be taken over (its process is gone, or its heartbeat is stale), or undefined. */
  private staleness(row: LockRow): string | undefined {
    if (row.host === hostname() && !processAlive(row.pid)) return "its process is gone";
    const age = this.now() - row.heartbeat_ms;
    const staleMs = this.options.staleMs ?? 30_000;
    return age > staleMs ? `no heartbeat for ${age} ms, over staleMs ${staleMs}` : undefined;
  }

  private isStale(row: LockRow): boolean {
    return this.staleness(row) !== undefined;
  }

  /**
   * Takes the thread's row, polling up to `waitMs`; throws THREAD_BUSY (also when `signal` aborts the
   * wait). Answers whom the row was taken over from (`pid … on … (why)`), when it was another owner's.
   */
  async acquire(threadId: string, waitMs: number, signal?: AbortSignal): Promise<string | undefined> {
    const pollMs = this.options.pollMs ?? 25;
    let taken = this.tryTake(threadId);
    for (let waited = 0; taken === false; waited += pollMs) {
      if (signal?.aborted) throw cancelledWait(threadId);
      if (waited >= waitMs) {
        throw new ObeliskError("THREAD_BUSY", `thread "${threadId}" is locked by another process`, {
          data: { threadId, waitMs },
        });
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      taken = this.tryTake(threadId);
    }
    const beat = setInterval(() => this.beat(threadId), this.options.heartbeatMs ?? 5_000);
    beat.unref?.();
    this.beats.set(threadId, beat);
    return taken.takeover;
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

  /**
   * Throws THREAD_BUSY when this store took the thread's lock and its row is gone or another owner's (taken
   * over as stale). Run inside the commit's transaction, so the answer holds for the commit.
   */
  assertOwned(threadId: string): void {
    if (!this.beats.has(threadId)) return;
    if (this.statements.lockOwned.get(threadId, this.owner) !== undefined) return;
    throw new ObeliskError(
      "THREAD_BUSY",
      `thread "${threadId}" is no longer locked by this run (another process took the lock over): the commit was refused`,
      {
        data: { threadId },
        hint: `a lock whose holder sends no heartbeat for ${this.options.staleMs ?? 30_000} ms (event loop blocked, process suspended) may be taken over`,
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
  goneHolder(threadId: string): { readonly holder?: string } | undefined {
    const row = this.statements.lockGet.get(threadId) as LockRow | undefined;
    if (row === undefined) return {};
    if (row.owner === this.owner) return this.beats.has(threadId) ? undefined : {};
    if (row.host === hostname() && !processAlive(row.pid)) return { holder: `pid ${row.pid} on ${row.host}` };
    return undefined;
  }

  /** True when another store (connection or process) holds the thread's row and it is not stale. */
  heldElsewhere(threadId: string): boolean {
    const row = this.statements.lockGet.get(threadId) as LockRow | undefined;
    return row !== undefined && row.owner !== this.owner && !this.isStale(row);
  }

  /** Releases the thread's row (only if this store owns it). */
  release(threadId: string): void {
    clearInterval(this.beats.get(threadId));
    this.beats.delete(threadId);
    this.statements.lockDelete.run(threadId, this.owner);
  }

  /** Releases every row this store holds. */
  releaseAll(): void {
    for (const threadId of [...this.beats.keys()]) this.release(threadId);
  }
}
