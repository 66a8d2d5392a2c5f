import type { JsonObject, JsonValue, ThreadId } from "@obelisk/core";
import { ObeliskError } from "@obelisk/core";
import type BetterSqlite3 from "better-sqlite3";
import type { LockHolder } from "../lock-holder.js";
import type { OpenedSqlite } from "../sqlite-open.js";
import { DEFAULT_CACHED_THREADS, type SqliteStoreOptions } from "../sqlite-store-options.js";
import type {
  CallCommit,
  CommitResult,
  RetentionPolicy,
  StateWrite,
  ThreadInfo,
  Tombstone,
} from "../store-types.js";
import { CachedStore } from "./cached-store.js";
import { ExpiryView } from "./expiry-view.js";
import { FileIdentity } from "./file-identity.js";
import { checkThreadId } from "./history-arguments.js";
import { SqliteCompaction } from "./sqlite-compaction.js";
import { readonlyError, wrap } from "./sqlite-errors.js";
import { SqliteLock } from "./sqlite-lock.js";
import { SqliteReads } from "./sqlite-reads.js";
import type { SqliteStatements } from "./sqlite-schema.js";
import { SqliteThreadRows } from "./sqlite-thread-rows.js";
import { SqliteTombstonesBelow } from "./sqlite-tombstones-below.js";
import { checkBound } from "./store-history.js";
import type { CommitExtras, ThreadChange, ThreadModel } from "./thread-model.js";

/**
 * The threads' side of the SQLite store (`SqliteStore` adds the run history): the cached thread models
 * loaded from the file and every change persisted to it (one IMMEDIATE transaction per commit), the
 * cross-process lock, the call counters, and expiry on a read-only file (see {@link ExpiryView}).
 */
export abstract class SqliteThreadStore extends CachedStore {
  protected readonly db: BetterSqlite3.Database;
  protected readonly sql: SqliteStatements;
  protected readonly lock: SqliteLock;
  /** True when the connection cannot write: every write is refused with {@link readonlyError}. */
  protected readonly readonly: boolean;
  /** The opened file's identity: a run that starts or ends after it was deleted or replaced fails. */
  protected readonly identity: FileIdentity;
  /** Call records, the write log, outputs, tombstones and statistics, read from the file. */
  protected readonly reads: SqliteReads;
  /** The write log compacted, records stripped of results whose values are gone (decision 0029). */
  protected readonly compaction: SqliteCompaction;
  private readonly persistTx: (model: ThreadModel, change: ThreadChange, extras?: CommitExtras) => boolean;
  /** The threads' rows: models loaded from them, changes written to them (in `persistTx`). */
  private readonly rows: SqliteThreadRows;
  /** The file's state tombstones below a written path. */
  private readonly tombstoneLookup: SqliteTombstonesBelow;
  /** One IMMEDIATE transaction around several commits (each commit's own transaction nests as a savepoint). */
  private readonly commitAllTx: (commits: readonly CallCommit[]) => CommitResult[];
  /** Read-only store: what expiry on read changed in the cached models (never the file). */
  private readonly view = new ExpiryView();
  /** Closes the connection (and removes the side files a read-only one made). */
  private readonly closeConnection: () => void;
  /**
   * Read-only store: the threads whose cached model holds what the file lacks and no read can make again (a
   * thread or schema given in memory only). Never dropped by the cache's bound: a reload would lose it.
   * Expiry on read's evictions are not among them (see {@link ExpiryView}).
   */
  private readonly diverged = new Set<ThreadId>();

  constructor(
    opened: OpenedSqlite,
    protected readonly file: string,
    options: SqliteStoreOptions,
  ) {
    super(options);
    this.idleModelBound = checkBound(
      "cachedThreads",
      options.cachedThreads,
      DEFAULT_CACHED_THREADS,
      "the number of idle threads whose models stay in memory (default 1000; 0 keeps none)",
    );
    const { db } = opened;
    this.db = db;
    this.readonly = opened.readonly;
    this.closeConnection = opened.close;
    this.sql = opened.statements;
    this.lock = new SqliteLock(db, this.sql, this.now, options.lock);
    this.tombstoneLookup = new SqliteTombstonesBelow(this.sql);
    this.compaction = new SqliteCompaction(this.sql, this.recordResultBytes);
    this.rows = new SqliteThreadRows(
      db,
      this.sql,
      this.lock,
      this.tombstoneLookup,
      this.compaction,
      this.maxTombstones,
    );
    this.identity = new FileIdentity(file);
    this.reads = new SqliteReads(this.sql);
    this.persistTx = db.transaction((model: ThreadModel, change: ThreadChange, extras?: CommitExtras) =>
      this.rows.write(model, change, extras),
    ).immediate;
    this.commitAllTx = db.transaction((commits: readonly CallCommit[]) =>
      commits.map((commit) => super.commitCall(commit)),
    ).immediate;
  }

  /** Throws the read-only error before a write is tried. */
  protected override assertWritable(action: string): void {
    if (this.readonly) throw readonlyError(this.file, action);
  }

  /** {@link StateStore.commitCalls}: one durable transaction (one WAL commit) for calls completed together. */
  commitCalls(commits: readonly CallCommit[]): CommitResult[] {
    this.assertOpen();
    this.assertWritable("commit");
    try {
      return this.commitAllTx(commits);
    } catch (error) {
      // The cached models already hold the commits made before the failure: reload them from the file.
      for (const commit of commits) this.invalidate(commit.record.threadId);
      throw wrap("commit", error, this.file);
    }
  }

  protected loadModel(threadId: ThreadId): ThreadModel | undefined {
    return this.rows.load(threadId);
  }

  protected saveThread(model: ThreadModel): void {
    // read-only: a thread the file lacks (or a schema given to it) lives in the cached model only
    if (this.readonly) {
      this.keepDiverged(model);
      return;
    }
    try {
      this.rows.save(model);
    } catch (error) {
      throw wrap(`record thread "${model.threadId}"`, error, this.file);
    }
  }

  /** Keeps the cached model when the file proves it current (no reload per run of an unchanged thread). */
  protected override refresh(threadId: ThreadId): void {
    const model = this.models.get(threadId);
    if (model !== undefined && !this.isCurrent(model)) this.invalidate(threadId);
  }

  /**
   * Reloads a model another connection moved past (a commit, an eviction, the thread deleted and maybe
   * created again: decision 0098) before a read answers from it. Not while this store holds the thread's
   * lock: taking it made the model current and no other run changes the thread meanwhile (one query less
   * per read in a run); a commit checks the row in its own transaction whatever the reads saw.
   */
  protected override revalidate(threadId: ThreadId): void {
    if (!this.locks.isHeld(threadId)) this.refresh(threadId);
  }

  /**
   * True when the file holds no change of the model's thread the model lacks. A model that expiry on read
   * changed (read-only store) is compared with where the file stood before that change.
   */
  private isCurrent(model: ThreadModel): boolean {
    const at = this.view.fileAt(model.threadId);
    return at === undefined ? this.rows.isCurrent(model) : this.rows.isAt(model.threadId, at);
  }

  protected override invalidate(threadId: ThreadId): void {
    this.models.delete(threadId);
    this.diverged.delete(threadId);
    this.view.forget(threadId);
  }

  /** What expiry on read changed in a dropped model goes with it: the next expiring read makes it again. */
  protected override modelDropped(threadId: ThreadId): void {
    this.view.forget(threadId);
  }

  /**
   * Read-only store: the model holds what the file lacks. It is cached (again: the bound may have dropped
   * it while its operation went on) and kept whatever the bound, until the file changes under it.
   */
  private keepDiverged(model: ThreadModel): void {
    this.diverged.add(model.threadId);
    if (this.models.get(model.threadId) !== model) this.cacheModel(model.threadId, model);
  }

  /**
   * Also a read-only store's model that holds what the file lacks and no read makes again, and the model
   * expiry on read changed last (even with `cachedThreads: 0`, the read that expired it goes on with it).
   */
  protected override modelInUse(threadId: ThreadId): boolean {
    return super.modelInUse(threadId) || this.diverged.has(threadId) || this.view.latest === threadId;
  }

  protected override cachedModelsInUse(): number {
    let count = super.cachedModelsInUse();
    for (const threadId of this.diverged)
      if (this.models.has(threadId) && !this.locks.isHeld(threadId)) count++;
    const latest = this.view.latest;
    if (
      latest !== undefined &&
      this.models.has(latest) &&
      !this.diverged.has(latest) &&
      !this.locks.isHeld(latest)
    )
      count++;
    return count;
  }

  protected persist(model: ThreadModel, change: ThreadChange, extras?: CommitExtras): boolean {
    if (this.readonly) {
      if (!this.view.active || extras?.create === true)
        throw readonlyError(this.file, `change thread "${model.threadId}"`);
      this.view.keep(model, change);
      // cached again (the bound may have dropped it while its read went on), as the latest expired
      if (this.models.get(model.threadId) !== model) this.cacheModel(model.threadId, model);
      return true;
    }
    try {
      const persisted = this.persistTx(model, change, extras);
      if (persisted) model.version++;
      return persisted;
    } catch (error) {
      throw wrap("commit", error, this.file);
    }
  }

  /** Runs expiry on read; on a read-only store its evictions change what this store shows, not the file. */
  private expiring<T>(expire: () => T): T {
    return this.readonly ? this.view.during(expire) : expire();
  }

  override expireStale(threadId: ThreadId, policy?: RetentionPolicy): Promise<number> {
    return this.expiring(() => super.expireStale(threadId, policy));
  }

  override getCallOutput(
    threadId: ThreadId,
    callId: string,
    policy?: RetentionPolicy,
  ): { readonly value: JsonValue } | Tombstone | undefined {
    return this.expiring(() => super.getCallOutput(threadId, callId, policy));
  }

  protected readOutput(threadId: ThreadId, callId: string): JsonValue | undefined {
    return this.reads.output(threadId, callId);
  }

  /** The file's state tombstones below the write (see {@link SqliteTombstonesBelow}). */
  protected stateTombstonesBelow(model: ThreadModel, write: StateWrite): readonly string[] {
    return this.tombstoneLookup.find(model, write);
  }

  protected readTombstone(threadId: ThreadId, reference: string): Tombstone | undefined {
    return this.view.tombstone(threadId, reference) ?? this.reads.tombstone(threadId, reference);
  }

  protected override async acquireExternal(
    threadId: ThreadId,
    waitMs: number,
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    this.assertWritable(`change thread "${threadId}"`);
    this.identity.assertSame(`change thread "${threadId}"`);
    try {
      return await this.lock.acquire(threadId, waitMs, signal);
    } catch (error) {
      throw wrap(`lock thread "${threadId}"`, error, this.file);
    }
  }

  /**
   * {@link StateStore.lockHolder}: the thread's `locks` row as THREAD_BUSY names its owner, with its
   * heartbeat; only read, so a read-only store answers too.
   */
  lockHolder(threadId: ThreadId): LockHolder | undefined {
    this.assertOpen();
    checkThreadId(threadId);
    try {
      return this.lock.holder(threadId);
    } catch (error) {
      throw wrap(`read the lock of thread "${threadId}"`, error, this.file);
    }
  }

  /** Also a run of another connection or process (its live row in the `locks` table). */
  protected override lockedByRun(threadId: ThreadId): boolean {
    return super.lockedByRun(threadId) || this.lock.heldElsewhere(threadId);
  }

  protected override releaseExternal(threadId: ThreadId): void {
    if (this.closed) return;
    try {
      this.lock.release(threadId);
    } catch (error) {
      throw wrap(`release thread "${threadId}"`, error, this.file);
    }
  }

  /**
   * Also asks the file whether the cached model is current (another connection may have deleted it). A
   * thread without a current cached model is answered from its `threads` row: its state is not read (so
   * `threads.list`, which asks every thread's statistics, reads no state).
   */
  override getThread(threadId: ThreadId): ThreadInfo | undefined {
    this.assertOpen();
    const model = this.models.get(threadId);
    if (model !== undefined) {
      if (this.isCurrent(model)) return model.info;
      this.invalidate(threadId);
    }
    try {
      return this.reads.thread(threadId);
    } catch (error) {
      throw wrap(`read thread "${threadId}"`, error, this.file);
    }
  }

  /** A model another connection moved past is reloaded first: the info answered is the file's thread's. */
  override async openThread(
    threadId: ThreadId,
    options: { readonly stateSchema?: JsonObject } = {},
  ): Promise<ThreadInfo> {
    this.assertOpen();
    this.revalidate(threadId);
    return await super.openThread(threadId, options);
  }

  override readState(threadId: ThreadId): JsonObject {
    const model = this.models.get(threadId);
    if (model !== undefined && !this.isCurrent(model)) this.invalidate(threadId);
    return super.readState(threadId);
  }

  reserveCallNumbers(threadId: ThreadId, count: number): number {
    this.assertOpen();
    if (!Number.isInteger(count) || count < 1)
      throw new ObeliskError("USAGE", `cannot reserve ${count} call numbers`);
    this.assertWritable(`reserve call numbers on thread "${threadId}"`);
    // a model of a thread deleted since would not make its row again, and the counter has no row to move
    this.revalidate(threadId);
    this.model(threadId);
    try {
      const row = this.sql.threadCounter.get(count, threadId) as { call_counter: number };
      return row.call_counter - count + 1;
    } catch (error) {
      throw wrap(`reserve call numbers on thread "${threadId}"`, error, this.file);
    }
  }

  nextCallNumber(threadId: ThreadId): number {
    this.assertOpen();
    return this.peekCallNumber(threadId);
  }

  protected peekCallNumber(threadId: ThreadId): number {
    const row = this.sql.threadCounterRead.get(threadId) as { call_counter: number } | undefined;
    return (row?.call_counter ?? 0) + 1;
  }

  protected override assertNumberable(threadId: ThreadId): void {
    this.assertWritable(`take a call number on thread "${threadId}"`);
  }

  override async close(): Promise<void> {
    if (this.closed) return;
    for (const model of this.readonly ? [] : this.models.values()) {
      try {
        this.rows.saveSnapshotIfCurrent(model);
      } catch {
        // a snapshot only speeds up the next open; the write log stays authoritative
      }
    }
    let failure: unknown;
    try {
      this.lock.releaseAll();
    } catch (error) {
      failure = wrap("release the thread locks", error, this.file);
    }
    await super.close();
    this.closeConnection();
    if (failure !== undefined) throw failure;
  }
}
