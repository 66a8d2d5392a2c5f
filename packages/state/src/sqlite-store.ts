import type { JsonValue, RunId, ThreadId } from "@obelisk/core";
import { ObeliskError } from "@obelisk/core";
import { checkStoreFile, checkStoreOptions } from "./internal/check-store-options.js";
import {
  checkFinishOptions,
  checkRunId,
  recordedRunIdError,
  type StoredRunsQuery,
} from "./internal/history-arguments.js";
import { unheldReason } from "./internal/interrupted-runs.js";
import { isDamagedThreadRow } from "./internal/parse-frozen.js";
import type { HistoryCandidates } from "./internal/prune-history.js";
import { missingFolderError, nativeModuleError, wrap } from "./internal/sqlite-errors.js";
import { type PrunedThread, SqliteHistoryRemoval } from "./internal/sqlite-history-removal.js";
import { SqliteRuns } from "./internal/sqlite-runs.js";
import { SqliteThreadStore } from "./internal/sqlite-thread-store.js";
import { vacuumDatabase } from "./internal/sqlite-vacuum.js";
import { type OpenedSqlite, openSqlite } from "./sqlite-open.js";
import type { SqliteStoreOptions } from "./sqlite-store-options.js";
import type {
  CallRecord,
  DeleteThreadOptions,
  FinalPlan,
  FinishRunOptions,
  RunRecord,
  RunStatus,
  RunSummary,
  StateStore,
  StoreStats,
  ThreadDeletion,
  ThreadInfo,
  VacuumResult,
  WriteLogEntry,
} from "./store-types.js";

export type { SqliteStoreOptions } from "./sqlite-store-options.js";

/**
 * The SQLite backend: one transaction per commit; folded state and variables cached per open thread (the
 * threads' side is {@link SqliteThreadStore}); here the run history — run records, the interrupted runs
 * found, call records and the write log read back, statistics.
 */
class SqliteStore extends SqliteThreadStore {
  readonly backend = "sqlite";
  /** The run records (and a streaming run's appended calls). */
  private readonly runs: SqliteRuns;
  /** Records a run, then creates its thread when the file lacks it (a model is cached once saved). */
  private readonly createRunTx: (run: RunRecord) => void;
  /** Runs pruned, threads deleted (decision 0029). */
  private readonly removal: SqliteHistoryRemoval;
  /** Marks a thread's `running` runs `interrupted` (see `interruptRuns`), in one IMMEDIATE transaction. */
  private readonly interruptTx: (threadId: ThreadId, reason: string, recheck: boolean) => void;

  constructor(opened: OpenedSqlite, file: string, options: SqliteStoreOptions) {
    super(opened, file, options);
    const { db } = opened;
    this.runs = new SqliteRuns(db, this.sql);
    this.removal = new SqliteHistoryRemoval(db, this.sql, this.compaction);
    this.interruptTx = db.transaction((threadId: ThreadId, reason: string, recheck: boolean) => {
      // the lock's answer again, in the transaction: a run that took the thread meanwhile is not marked
      if (recheck && this.abandonment(threadId) === undefined) return;
      const running = this.runs.runningOf(threadId);
      const endedAt = this.isoNow();
      for (const run of running) this.runs.end(run, { status: "interrupted", endedAt, reason });
    }).immediate;
    this.createRunTx = db.transaction((run: RunRecord) => {
      if (this.runs.holds(run.runId)) throw recordedRunIdError(run.runId);
      this.runs.insert(run);
      this.model(run.threadId);
    }).immediate;
  }

  /**
   * A run of this store holds the in-process lock; another's, its `locks` row. No row (or one this store
   * left), or a row of a process of this host that is gone: no run is in progress. A live process's row,
   * or another host's, may be a run's: left to a takeover (see `SqliteLock.goneHolder`).
   */
  protected abandonment(threadId: ThreadId): string | undefined {
    if (this.locks.isHeld(threadId)) return undefined;
    const gone = this.lock.goneHolder(threadId);
    return gone === undefined ? undefined : unheldReason(threadId, gone.holder, gone.why);
  }

  protected interruptRuns(threadId: ThreadId, reason: string, recheck: boolean): void {
    try {
      this.interruptTx(threadId, reason, recheck);
    } catch (error) {
      throw wrap("mark interrupted runs", error, this.file);
    }
  }

  protected override recordsInterruptions(): boolean {
    return !this.readonly;
  }

  /**
   * The run and, when the file lacks it, its thread, in one transaction: a refused run (a run id the file
   * holds, checked in the transaction) creates no thread.
   */
  createRun(run: RunRecord): void {
    this.assertOpen();
    this.assertWritable("record a run");
    try {
      this.createRunTx(run);
    } catch (error) {
      throw wrap("createRun", error, this.file);
    }
  }

  /**
   * {@link StateStore.finishRun}; a store whose lock of the run's thread was taken over leaves the record
   * as the taker (and a resume or cancel after it) made it.
   */
  finishRun(
    runId: RunId,
    status: RunStatus,
    endedAt: string,
    final?: FinalPlan,
    options?: FinishRunOptions,
  ): void {
    this.assertOpen();
    const reason = checkFinishOptions(options);
    // the record as stored: finishing a `running` run does not first mark it interrupted
    const run = this.readRun(checkRunId(runId));
    if (run === undefined) throw new ObeliskError("RUN_NOT_FOUND", `no run "${runId}"`);
    this.assertWritable(`finish run "${runId}"`);
    this.identity.assertSame(`finish run "${runId}"`);
    // The thread's lock was taken over from this store (its process was suspended past staleMs): the taker
    // marked the run `interrupted`, and a resume or `runs.cancel` may have ended it since. The late
    // process's own ending (its commits were refused) would overwrite that record: it is left as it is.
    // Asked inside the write transaction, so no takeover comes between the answer and the write.
    try {
      this.db
        .transaction(() => {
          if (!this.lock.lost(run.threadId)) this.runs.finish(run, status, endedAt, final, reason);
        })
        .immediate();
    } catch (error) {
      throw wrap(`finish run "${runId}"`, error, this.file);
    }
  }

  appendRunCalls(runId: RunId, calls: readonly JsonValue[]): void {
    this.assertOpen();
    this.assertWritable(`record the calls of run "${runId}"`);
    try {
      this.runs.append(runId, calls);
    } catch (error) {
      throw wrap("appendRunCalls", error, this.file);
    }
  }

  protected readRun(runId: RunId): RunRecord | undefined {
    return this.runs.read(runId);
  }

  protected queryRuns(query: StoredRunsQuery): readonly RunRecord[] {
    return this.runs.query(query);
  }

  protected querySummaries(query: StoredRunsQuery): readonly RunSummary[] {
    return this.runs.summaries(query);
  }

  protected runPlace(runId: RunId): { readonly threadId: string; readonly place: number } | undefined {
    return this.runs.place(runId);
  }

  protected readResume(runId: RunId): RunRecord | undefined {
    return this.runs.resumeOf(runId);
  }

  protected readCallRecords(runId: RunId): readonly CallRecord[] {
    return this.reads.callRecords(runId);
  }

  findCompletedCall(threadId: ThreadId, callHash: string): CallRecord | undefined {
    this.assertOpen();
    return this.reads.completedCall(threadId, callHash);
  }

  findCompletedCalls(threadId: ThreadId, callHash: string, limit: number): readonly CallRecord[] {
    this.assertOpen();
    return this.reads.completedCalls(threadId, callHash, limit);
  }

  readWriteLog(threadId: ThreadId): readonly WriteLogEntry[] {
    this.assertOpen();
    return this.reads.writeLog(threadId);
  }

  stats(threadId?: ThreadId): StoreStats {
    this.assertOpen();
    return this.reads.stats(threadId, (held) => this.getThread(held) !== undefined);
  }

  listThreads(): readonly ThreadInfo[] {
    this.assertOpen();
    try {
      return this.reads.threads();
    } catch (error) {
      throw wrap("list threads", error, this.file);
    }
  }

  listIdleThreads(idleSince: string): readonly ThreadInfo[] {
    this.assertOpen();
    try {
      return this.reads.idleThreads(
        idleSince,
        (threadId) => this.abandonment(threadId as ThreadId) !== undefined,
      );
    } catch (error) {
      throw wrap("list threads", error, this.file);
    }
  }

  protected pruneThread(
    threadId: ThreadId,
    runIds: readonly RunId[],
    editsBefore: number,
    held = false,
  ): PrunedThread | undefined {
    // the caller's lock may have been taken over meanwhile (THREAD_BUSY), asked in the transaction
    const busy = held
      ? () => {
          this.lock.assertOwned(threadId);
          return false;
        }
      : () => this.lockedByRun(threadId);
    try {
      return this.removal.pruneRuns(threadId, runIds, editsBefore, busy);
    } catch (error) {
      throw wrap("prune runs", error, this.file);
    }
  }

  protected historyCandidates(threadId: ThreadId, keepRuns: number, limit: number): HistoryCandidates {
    try {
      return this.removal.historyCandidates(threadId, keepRuns, limit);
    } catch (error) {
      throw wrap("prune history", error, this.file);
    }
  }

  protected editedThreads(threadId: ThreadId | undefined): ReadonlySet<ThreadId> {
    try {
      return this.removal.editedThreads(threadId);
    } catch (error) {
      throw wrap("prune runs", error, this.file);
    }
  }

  protected prunedThreads(threadId: ThreadId | undefined): ReadonlySet<ThreadId> {
    try {
      return this.removal.prunedThreads(threadId);
    } catch (error) {
      throw wrap("prune runs", error, this.file);
    }
  }

  /**
   * {@link StateStore.vacuum}: refused while a run may hold any thread (this store's run, or a live lock
   * row of another connection or process), checked just before the `VACUUM`, in the same synchronous step.
   */
  async vacuum(): Promise<VacuumResult> {
    this.assertOpen();
    this.assertWritable("vacuum the store file");
    this.identity.assertSame("vacuum the store file");
    try {
      return vacuumDatabase(this.db, this.file, () => this.lock.assertNoneHeld("vacuum the store file"));
    } catch (error) {
      throw wrap("vacuum", error, this.file);
    }
  }

  /**
   * {@link StateStore.deleteThread}; a thread whose own rows are damaged (its snapshot, schema, a variable or
   * a write-log entry is not JSON: its model cannot be loaded) is still deleted — what the damaged-row
   * error's hint offers — under its lock, without reading those rows.
   */
  override async deleteThread(
    threadId: ThreadId,
    options: DeleteThreadOptions = {},
  ): Promise<ThreadDeletion> {
    try {
      return await super.deleteThread(threadId, options);
    } catch (error) {
      if (!isDamagedThreadRow(error, threadId)) throw error;
    }
    const lock = await this.lockThread(threadId, options);
    try {
      return this.removeThread(threadId);
    } finally {
      await lock.release();
    }
  }

  protected removeThread(threadId: ThreadId): ThreadDeletion {
    try {
      return this.removal.removeThread(threadId, () => this.lock.assertOwned(threadId));
    } catch (error) {
      throw wrap("delete thread", error, this.file);
    } finally {
      this.invalidate(threadId);
    }
  }
}

/**
 * Opens (or creates, unless {@link SqliteStoreOptions.create} is false) a SQLite store in `file` (`:memory:`
 * works). WAL journal, one IMMEDIATE transaction per commit, prepared statements. Several processes may open
 * (and create) one file at once. A file this process cannot write is opened read-only (see
 * {@link SqliteStoreOptions.readonly}). Throws ObeliskError STORE_ERROR when the file cannot be opened, and
 * USAGE for an option out of range (before the file is touched).
 */
export function createSqliteStore(file: string, options: SqliteStoreOptions = {}): StateStore {
  checkStoreFile(file);
  checkStoreOptions(options, "createSqliteStore");
  let opened: OpenedSqlite | undefined;
  try {
    opened = openSqlite(file, {
      readonly: options.readonly,
      create: options.create,
      migrate: options.migrate,
      busyTimeoutMs: options.busyTimeoutMs ?? 5_000,
      durability: options.durability,
    });
    return new SqliteStore(opened, file, options);
  } catch (error) {
    opened?.close();
    throw (
      nativeModuleError(file, error) ?? missingFolderError(file, error) ?? wrap(`open ${file}`, error, file)
    );
  }
}
