import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { JsonObject, JsonValue, RunId, ThreadId } from "@obelisk/core";
import { applyOutputInPlace, deepFreeze, ObeliskError } from "@obelisk/core";
import type BetterSqlite3 from "better-sqlite3";
import { CachedStore } from "./internal/cached-store.js";
import { FileIdentity } from "./internal/file-identity.js";
import { checkRunId, recordedRunIdError, type StoredRunsQuery } from "./internal/history-arguments.js";
import { unheldReason } from "./internal/interrupted-runs.js";
import { SqliteLock, type SqliteLockOptions } from "./internal/sqlite-lock.js";
import { SqliteRuns } from "./internal/sqlite-runs.js";
import type { SqliteStatements } from "./internal/sqlite-schema.js";
import { createStateValidator } from "./internal/state-validator.js";
import { supersededTombstones } from "./internal/superseded-tombstones.js";
import {
  type CommitExtras,
  commitLogEntry,
  createThreadModel,
  putVariable,
  type ThreadChange,
  type ThreadModel,
} from "./internal/thread-model.js";
import { unsetAtPath } from "./internal/unset-at-path.js";
import { isCorruptError, isReadonlyError, type OpenedSqlite, openSqlite } from "./sqlite-open.js";
import type { StoreOptions } from "./store-options.js";
import type {
  CallCommit,
  CallRecord,
  CommitResult,
  FinalPlan,
  RunRecord,
  RunStatus,
  StateStore,
  StateWrite,
  StoreStats,
  Tombstone,
  VariableMeta,
  WriteLogEntry,
} from "./store-types.js";

/** Options of the SQLite backend. */
export interface SqliteStoreOptions extends StoreOptions {
  /**
   * `normal` (default): WAL + synchronous=NORMAL — a commit survives a process crash; the last commits may
   * be lost on power loss. `full`: synchronous=FULL — survives power loss, slower.
   */
  readonly durability?: "normal" | "full";
  /**
   * How long a write (and opening a file another process is creating) waits for another connection's
   * write transaction, ms. Default 5,000.
   */
  readonly busyTimeoutMs?: number;
  /**
   * Open the file read-only: reads work, every write is refused (`STORE_ERROR`, `data.reason: "readonly"`)
   * and nothing in the file changes. Default: read-only only when the file exists and this process cannot
   * write it (or its directory). The file must exist and hold a store of this schema version (an empty
   * file or another program's database: `STORE_ERROR`, `data.reason: "not-a-store"`); nothing beside it is
   * left behind (a writable file is read through a connection that may change nothing, which removes
   * SQLite's `-wal` and `-shm` files when it closes).
   */
  readonly readonly?: boolean;
  /**
   * `true` (default): a missing or empty file becomes a new store, and another program's database gets the
   * store's tables beside its own — unless one of its tables, indexes or views has the name of one of the
   * store's with another shape (a `threads` table with other columns): that database is refused
   * (`STORE_ERROR`, `data: { reason: "not-a-store", file, clash: "<name>" }`). `"if-empty"`: a missing or
   * empty file becomes a new store; another program's database is refused (`not-a-store`) — what the CLI's
   * writing commands use. `false`: the file must already hold a store; a missing file, an empty one or
   * another program's database is refused (`not-a-store`). A refused file is left byte for byte as it was
   * (journal mode included). A store of an older schema version is still brought up to date when the file
   * can be written.
   */
  readonly create?: boolean | "if-empty";
  /** Cross-process lock tuning. */
  readonly lock?: SqliteLockOptions;
}

const NONE: readonly string[] = Object.freeze([]);
/** At most this many references remembered per model with no tombstone below (then it starts over). */
const NOTHING_BELOW_MAX = 4096;
const parse = <T>(text: string): T => deepFreeze(JSON.parse(text) as JsonValue) as T;
const wrap = (action: string, error: unknown, file?: string): ObeliskError => {
  if (ObeliskError.is(error)) return error;
  if (file !== undefined && isReadonlyError(error)) return readonlyError(file, action, error);
  if (file !== undefined && isCorruptError(error)) return corruptError(file, error);
  return new ObeliskError("STORE_ERROR", `sqlite ${action} failed: ${(error as Error).message}`, {
    cause: error,
  });
};

/** The error of a write to a store that cannot be written: `STORE_ERROR` with `data.reason: "readonly"`. */
function readonlyError(file: string, action: string, cause?: unknown): ObeliskError {
  return new ObeliskError("STORE_ERROR", `cannot ${action}: the SQLite store ${file} is read-only`, {
    ...(cause === undefined ? {} : { cause }),
    hint: "this process may not write the file or its directory (or it was opened read-only); reading works",
    data: { reason: "readonly", file },
  });
}

/** A file SQLite cannot read as a database: `STORE_ERROR` with `data.reason: "corrupt"`. */
function corruptError(file: string, cause: unknown): ObeliskError {
  return new ObeliskError(
    "STORE_ERROR",
    `${file} is not a SQLite database, or a damaged one (SQLite: ${(cause as Error).message})`,
    {
      cause,
      hint: "restore the file from a backup, or use another file: the store never repairs or overwrites it",
      data: { reason: "corrupt", file },
    },
  );
}

interface ThreadRow {
  state_schema: string | null;
  created_at: string;
  next_seq: number;
  snapshot: string;
  snapshot_seq: number;
  version: number;
}

/** A thread's `next_seq` and change counter: equal to a cached model's, the model is current. */
interface ThreadVersion {
  next_seq: number;
  version: number;
}

/**
 * A snapshot is also written in a commit's transaction once the write log after the last snapshot is longer
 * (in JSON characters) than both the snapshot and this: a reload (another process's change, a restart)
 * parses at most about twice the state's size, and writing snapshots costs O(1) per logged character.
 */
const SNAPSHOT_MIN_LOG_CHARS = 256 * 1024;

/** The sizes behind the snapshot rule, per cached model (JSON characters). */
interface LogFacts {
  /** The last snapshot's length. */
  snapshotChars: number;
  /** The write-log entries persisted after it. */
  logChars: number;
}

/** Folds a write-log entry into a working tree, in place (used when reopening a thread; values are fresh parses). */
function foldEntry(state: JsonObject, entry: WriteLogEntry): JsonObject {
  if (entry.op === "reset") return {};
  if (entry.op === "unset") return unsetAtPath(state, entry.write.path);
  const applied = applyOutputInPlace(state, entry.write.path, entry.write.method, entry.write.value);
  if (!applied.ok)
    throw new ObeliskError("STORE_ERROR", `write log entry ${entry.seq} does not apply: ${applied.message}`);
  return applied.value as JsonObject;
}

/** The SQLite backend: one transaction per commit; folded state and variables cached per open thread. */
class SqliteStore extends CachedStore {
  readonly backend = "sqlite";
  private readonly sql: SqliteStatements;
  private readonly lock: SqliteLock;
  private readonly persistTx: (model: ThreadModel, change: ThreadChange, extras?: CommitExtras) => boolean;
  /**
   * Per cached model, written references the file holds no state tombstone below. Only an eviction or a
   * reset adds tombstones: this store's forget the model's set; another connection's make the next commit
   * reload the model. A thread rewriting the same paths asks the file once per path, not once per write.
   */
  private readonly nothingBelow = new WeakMap<ThreadModel, Set<string>>();
  /** Snapshot and log sizes per cached model (see {@link SNAPSHOT_MIN_LOG_CHARS}). */
  private readonly logFacts = new WeakMap<ThreadModel, LogFacts>();
  /** One IMMEDIATE transaction around several commits (each commit's own transaction nests as a savepoint). */
  private readonly commitAllTx: (commits: readonly CallCommit[]) => CommitResult[];
  /** The run records (and a streaming run's appended calls). */
  private readonly runs: SqliteRuns;
  /** Records a run, then creates its thread when the file lacks it (a model is cached once saved). */
  private readonly createRunTx: (run: RunRecord) => void;
  /** Marks a thread's `running` runs `interrupted` (see `interruptRuns`), in one IMMEDIATE transaction. */
  private readonly interruptTx: (threadId: ThreadId, reason: string, recheck: boolean) => void;
  /** The opened file's identity: a run that starts or ends after it was deleted or replaced fails. */
  private readonly identity: FileIdentity;

  private readonly db: BetterSqlite3.Database;
  /** True when the connection cannot write: every write is refused with {@link readonlyError}. */
  private readonly readonly: boolean;
  /**
   * Read-only store: set while expiry on read runs. Its evictions then change only the cached model (what
   * this store shows), never the file; their tombstones are kept here, by thread and reference.
   */
  private expiringView = false;
  private readonly viewTombstones = new Map<ThreadId, Map<string, Tombstone>>();

  constructor(
    opened: OpenedSqlite,
    private readonly file: string,
    options: SqliteStoreOptions,
  ) {
    super(options);
    const { db } = opened;
    this.db = db;
    this.readonly = opened.readonly;
    this.sql = opened.statements;
    this.lock = new SqliteLock(db, this.sql, this.now, options.lock);
    this.identity = new FileIdentity(file);
    this.persistTx = db.transaction((model: ThreadModel, change: ThreadChange, extras?: CommitExtras) =>
      this.write(model, change, extras),
    ).immediate;
    this.commitAllTx = db.transaction((commits: readonly CallCommit[]) =>
      commits.map((commit) => super.commitCall(commit)),
    ).immediate;
    this.runs = new SqliteRuns(db, this.sql, parse);
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

  /** Throws the read-only error before a write is tried. */
  private assertWritable(action: string): void {
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
    const row = this.sql.threadGet.get(threadId) as ThreadRow | undefined;
    if (row === undefined) return undefined;
    const schema = row.state_schema === null ? undefined : (JSON.parse(row.state_schema) as JsonObject);
    const info = {
      threadId,
      createdAt: row.created_at,
      ...(schema === undefined ? {} : { stateSchema: schema }),
    };
    const model = createThreadModel(info, schema === undefined ? undefined : createStateValidator(schema));
    let state = JSON.parse(row.snapshot) as JsonObject;
    let logChars = 0;
    for (const { entry } of this.sql.logSince.all(threadId, row.snapshot_seq) as { entry: string }[]) {
      state = foldEntry(state, JSON.parse(entry) as WriteLogEntry);
      logChars += entry.length;
    }
    model.state = state;
    model.unfrozenKeys = undefined;
    model.nextSeq = row.next_seq;
    model.version = row.version;
    this.logFacts.set(model, { snapshotChars: row.snapshot.length, logChars });
    this.noteTombstones(model);
    type VarRow = { path: string; touch: number; updated_ms: number; meta: string };
    for (const v of this.sql.varLoad.all(threadId) as VarRow[]) {
      putVariable(model, {
        meta: parse<VariableMeta>(v.meta),
        path: parse(v.path),
        touch: v.touch,
        updatedMs: v.updated_ms,
      });
    }
    return model;
  }

  protected saveThread(model: ThreadModel): void {
    // read-only: a thread the file lacks (or a schema given to it) lives in the cached model only
    if (this.readonly) return;
    const schema = model.info.stateSchema === undefined ? null : JSON.stringify(model.info.stateSchema);
    this.sql.threadInsert.run(model.threadId, schema, model.info.createdAt);
    const changed = this.sql.threadSchema.get(schema, model.threadId, schema) as ThreadVersion | undefined;
    // current only when nobody else changed the thread since the model was loaded; else reload on next check
    if (changed !== undefined)
      model.version =
        changed.version === model.version + 1 && changed.next_seq === model.nextSeq ? changed.version : -1;
    this.noteTombstones(model);
  }

  /** True when the file holds no change of the model's thread the model does not have. */
  private isCurrent(model: ThreadModel): boolean {
    const stored = this.sql.threadSeq.get(model.threadId) as ThreadVersion | undefined;
    return stored !== undefined && stored.next_seq === model.nextSeq && stored.version === model.version;
  }

  /** Keeps the cached model when the file proves it current (no reload per run of an unchanged thread). */
  protected override refresh(threadId: ThreadId): void {
    const model = this.models.get(threadId);
    if (model !== undefined && !this.isCurrent(model)) this.invalidate(threadId);
  }

  /** The snapshot-rule sizes of a model (a model created here starts with an empty snapshot and log). */
  private factsOf(model: ThreadModel): LogFacts {
    let facts = this.logFacts.get(model);
    if (facts === undefined) {
      facts = { snapshotChars: 2, logChars: 0 };
      this.logFacts.set(model, facts);
    }
    return facts;
  }

  /**
   * Records whether the model's thread has a state tombstone in the file now (`stateTombstones`: without
   * one, a state variable written there has no tombstone to clear). Another connection evicting or
   * resetting a state variable advances the thread's sequence number, so this store's next commit re-plans
   * against a reloaded model; call-output tombstones are always cleared.
   */
  private noteTombstones(model: ThreadModel): void {
    model.stateTombstones = this.sql.tombstoneAny.get(model.threadId) !== undefined;
  }

  protected override invalidate(threadId: ThreadId): void {
    this.models.delete(threadId);
  }

  protected persist(model: ThreadModel, change: ThreadChange, extras?: CommitExtras): boolean {
    if (this.readonly) {
      if (!this.expiringView || extras?.create === true)
        throw readonlyError(this.file, `change thread "${model.threadId}"`);
      this.keepViewTombstones(model.threadId, change);
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

  /** Read-only store: remembers the tombstones of evictions made by expiry on read (see `expiringView`). */
  private keepViewTombstones(threadId: ThreadId, change: ThreadChange): void {
    let tombstones = this.viewTombstones.get(threadId);
    if (tombstones === undefined) {
      tombstones = new Map();
      this.viewTombstones.set(threadId, tombstones);
    }
    for (const { tombstone } of change.evictions) tombstones.set(tombstone.reference, tombstone);
  }

  /** Runs expiry on read; on a read-only store its evictions change what this store shows, not the file. */
  private expiring<T>(expire: () => T): T {
    if (!this.readonly) return expire();
    this.expiringView = true;
    try {
      return expire();
    } finally {
      this.expiringView = false;
    }
  }

  override expireStale(threadId: ThreadId): Promise<number> {
    return this.expiring(() => super.expireStale(threadId));
  }

  override getCallOutput(
    threadId: ThreadId,
    callId: string,
  ): { readonly value: JsonValue } | Tombstone | undefined {
    return this.expiring(() => super.getCallOutput(threadId, callId));
  }

  /**
   * The checks of a commit's `extras` (read in the commit's transaction, before anything is written): a
   * thread to create must still be missing, a call number must still be the counter's next. False: another
   * writer got there first.
   */
  private extrasHold(id: ThreadId, extras: CommitExtras | undefined): boolean {
    if (extras?.create === true && this.sql.threadSeq.get(id) !== undefined) return false;
    if (extras?.callNumber === undefined) return true;
    const row = this.sql.threadCounterRead.get(id) as { call_counter: number } | undefined;
    return (row?.call_counter ?? 0) + 1 === extras.callNumber;
  }

  /** The body of the commit transaction. */
  private write(model: ThreadModel, change: ThreadChange, extras?: CommitExtras): boolean {
    const { sql } = this;
    const id = model.threadId;
    this.lock.assertOwned(id);
    if (!this.extrasHold(id, extras)) return false;
    const schema = model.info.stateSchema === undefined ? null : JSON.stringify(model.info.stateSchema);
    if (extras?.create === true) sql.threadInsert.run(id, schema, model.info.createdAt);
    // the staleness check and the update in one statement: no row changed = another writer moved the thread
    const advanced = sql.threadAdvance.run(
      change.nextSeq,
      model.version + 1,
      id,
      model.nextSeq,
      model.version,
    );
    if (advanced.changes === 0) return false;
    // the change's own version step covers the schema and the counter
    if (extras?.schema === true && extras.create !== true) sql.threadSchemaSet.run(schema, id);
    if (extras?.callNumber !== undefined) sql.threadCounterSet.run(extras.callNumber, id);
    const facts = this.factsOf(model);
    if (change.reset === true) {
      for (const clear of [sql.logClear, sql.varClear, sql.outputClear, sql.recordsForget]) clear.run(id);
      facts.logChars = 0;
    }
    for (const entry of change.log) {
      const text = JSON.stringify(entry);
      sql.logInsert.run(id, entry.seq, entry.op ?? null, text);
      facts.logChars += text.length;
    }
    const { commitLog, record } = change;
    if (commitLog !== undefined && record !== undefined) {
      const { firstSeq, date, writes } = commitLog;
      for (let index = 0; index < writes.length; index++) {
        const entry = commitLogEntry(firstSeq + index, record, date, writes[index] as StateWrite);
        const text = JSON.stringify(entry);
        sql.logInsert.run(id, entry.seq, null, text);
        facts.logChars += text.length;
      }
    }
    // the model learns of this change's tombstones once it is persisted (`applyChangeToModel`)
    const evictsState = change.evictions.some(({ entry }) => entry.meta.scope === "state");
    if (evictsState) this.nothingBelow.delete(model);
    const clearStateTombstones = model.stateTombstones || evictsState;
    for (const { entry, tombstone } of change.evictions) {
      sql.varDelete.run(id, entry.meta.reference);
      if (entry.meta.scope === "calls") sql.outputDelete.run(id, String(entry.path[0]));
      sql.tombstoneUpsert.run(id, tombstone.reference, tombstone.evictedAt, tombstone.reason);
    }
    for (const entry of change.drops) {
      sql.varDelete.run(id, entry.meta.reference);
      if (entry.meta.scope === "calls") sql.outputDelete.run(id, String(entry.path[0]));
    }
    for (const { meta, path, touch, updatedMs } of change.upserts) {
      sql.varUpsert.run(
        id,
        meta.reference,
        meta.scope,
        JSON.stringify(path),
        touch,
        updatedMs,
        meta.bytes,
        JSON.stringify(meta),
      );
      if (meta.scope !== "state") sql.tombstoneDelete.run(id, meta.reference);
      else if (clearStateTombstones) {
        sql.tombstoneDelete.run(id, meta.reference);
        for (const above of supersededTombstones({ meta, path, touch, updatedMs }))
          sql.tombstoneDelete.run(id, above);
      }
    }
    for (const reference of change.clearedTombstones) sql.tombstoneDelete.run(id, reference);
    for (const output of change.outputs)
      sql.outputUpsert.run(id, output.callId, JSON.stringify(output.value));
    if (record !== undefined) {
      sql.recordInsert.run(
        id,
        record.runId,
        record.callId,
        record.status,
        record.callHash ?? null,
        JSON.stringify(record),
      );
    }
    if (
      change.evictions.length > 0 ||
      change.reset === true ||
      facts.logChars > Math.max(facts.snapshotChars, SNAPSHOT_MIN_LOG_CHARS)
    ) {
      const snapshot = JSON.stringify(change.state);
      sql.snapshotPut.run(id, snapshot, change.nextSeq);
      sql.threadSnapshotClear.run(id);
      facts.snapshotChars = snapshot.length;
      facts.logChars = 0;
    }
    return true;
  }

  protected readOutput(threadId: ThreadId, callId: string): JsonValue | undefined {
    const row = this.sql.outputGet.get(threadId, callId) as { value: string } | undefined;
    return row === undefined ? undefined : parse<JsonValue>(row.value);
  }

  /**
   * Two ranges of the tombstones' primary key, one per way a child's reference continues its parent's
   * (`.`, `[`); a reference found with none below is remembered (see {@link nothingBelow}).
   */
  protected stateTombstonesBelow(model: ThreadModel, write: StateWrite): readonly string[] {
    const parent = write.reference;
    let known = this.nothingBelow.get(model);
    if (known?.has(parent)) return NONE;
    const id = model.threadId;
    const rows = this.sql.tombstonesBelow.all(
      id,
      `${parent}.`,
      `${parent}/`,
      id,
      `${parent}[`,
      `${parent}\\`,
    ) as { reference: string }[];
    if (rows.length > 0) return rows.map((row) => row.reference);
    if (known === undefined || known.size >= NOTHING_BELOW_MAX) {
      known = new Set();
      this.nothingBelow.set(model, known);
    }
    known.add(parent);
    return NONE;
  }

  protected readTombstone(threadId: ThreadId, reference: string): Tombstone | undefined {
    const seen = this.viewTombstones.get(threadId)?.get(reference);
    if (seen !== undefined) return seen;
    const row = this.sql.tombstoneGet.get(threadId, reference) as
      | { reference: string; evicted_at: string; reason: string }
      | undefined;
    return row === undefined
      ? undefined
      : Object.freeze({ reference: row.reference, evictedAt: row.evicted_at, reason: row.reason });
  }

  protected override async acquireExternal(
    threadId: ThreadId,
    waitMs: number,
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    this.assertWritable(`change thread "${threadId}"`);
    this.identity.assertSame(`change thread "${threadId}"`);
    return this.lock.acquire(threadId, waitMs, signal);
  }

  /**
   * A run of this store holds the in-process lock; another's, its `locks` row. No row (or one this store
   * left), or a row of a process of this host that is gone: no run is in progress. A live process's row,
   * or another host's, may be a run's: left to a takeover (see `SqliteLock.goneHolder`).
   */
  protected abandonment(threadId: ThreadId): string | undefined {
    if (this.locks.isHeld(threadId)) return undefined;
    const gone = this.lock.goneHolder(threadId);
    return gone === undefined ? undefined : unheldReason(threadId, gone.holder);
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

  /** Also a run of another connection or process (its live row in the `locks` table). */
  protected override lockedByRun(threadId: ThreadId): boolean {
    return super.lockedByRun(threadId) || this.lock.heldElsewhere(threadId);
  }

  protected override releaseExternal(threadId: ThreadId): void {
    if (!this.closed) this.lock.release(threadId);
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
    this.model(threadId);
    const row = this.sql.threadCounter.get(count, threadId) as { call_counter: number };
    return row.call_counter - count + 1;
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

  finishRun(runId: RunId, status: RunStatus, endedAt: string, final?: FinalPlan): void {
    this.assertOpen();
    // the record as stored: finishing a `running` run does not first mark it interrupted
    const run = this.readRun(checkRunId(runId));
    if (run === undefined) throw new ObeliskError("RUN_NOT_FOUND", `no run "${runId}"`);
    this.assertWritable(`finish run "${runId}"`);
    this.identity.assertSame(`finish run "${runId}"`);
    this.runs.finish(run, status, endedAt, final);
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

  protected readCallRecords(runId: RunId): readonly CallRecord[] {
    return (this.sql.recordsOfRun.all(runId) as { record: string }[]).map((row) =>
      parse<CallRecord>(row.record),
    );
  }

  findCompletedCall(threadId: ThreadId, callHash: string): CallRecord | undefined {
    this.assertOpen();
    const row = this.sql.recordCompleted.get(threadId, callHash) as { record: string } | undefined;
    return row === undefined ? undefined : parse<CallRecord>(row.record);
  }

  findCompletedCalls(threadId: ThreadId, callHash: string, limit: number): readonly CallRecord[] {
    this.assertOpen();
    const rows = this.sql.recordsCompleted.all(threadId, callHash, limit) as { record: string }[];
    return rows.map((row) => parse<CallRecord>(row.record));
  }

  readWriteLog(threadId: ThreadId): readonly WriteLogEntry[] {
    this.assertOpen();
    return (this.sql.logAll.all(threadId) as { entry: string }[]).map((row) =>
      parse<WriteLogEntry>(row.entry),
    );
  }

  stats(threadId?: ThreadId): StoreStats {
    this.assertOpen();
    type ScopeRow = { scope: string; n: number; bytes: number };
    const rows = (
      threadId === undefined ? this.sql.statsVars.all() : this.sql.statsVarsThread.all(threadId)
    ) as ScopeRow[];
    const of = (scope: string) => rows.find((row) => row.scope === scope) ?? { n: 0, bytes: 0 };
    const runs = (
      threadId === undefined ? this.sql.statsRuns.get() : this.sql.statsRunsThread.get(threadId)
    ) as { n: number };
    const threads =
      threadId === undefined
        ? (this.sql.statsThreads.get() as { n: number }).n
        : this.getThread(threadId) === undefined
          ? 0
          : 1;
    const state = of("state");
    const calls = of("calls");
    return {
      threads,
      variables: state.n,
      variableBytes: state.bytes,
      callOutputs: calls.n,
      callOutputBytes: calls.bytes,
      runs: runs.n,
    };
  }

  /** Saves the model's state as the thread's snapshot when the model is still current (one transaction). */
  private saveSnapshotIfCurrent(model: ThreadModel): void {
    const { sql } = this;
    this.db.transaction(() => {
      const saved = sql.snapshotPutIfCurrent.run(JSON.stringify(model.state), model.threadId, model.nextSeq);
      if (saved.changes > 0) sql.threadSnapshotClear.run(model.threadId);
    })();
  }

  override async close(): Promise<void> {
    if (this.closed) return;
    for (const model of this.readonly ? [] : this.models.values()) {
      try {
        this.saveSnapshotIfCurrent(model);
      } catch {
        // a snapshot only speeds up the next open; the write log stays authoritative
      }
    }
    this.lock.releaseAll();
    await super.close();
    this.db.close();
  }
}

/**
 * Opens (or creates, unless {@link SqliteStoreOptions.create} is false) a SQLite store in `file` (`:memory:`
 * works). WAL journal, one IMMEDIATE transaction per commit, prepared statements. Several processes may open
 * (and create) one file at once. A file this process cannot write is opened read-only (see
 * {@link SqliteStoreOptions.readonly}). Throws ObeliskError STORE_ERROR when the file cannot be opened.
 */
export function createSqliteStore(file: string, options: SqliteStoreOptions = {}): StateStore {
  let opened: OpenedSqlite | undefined;
  try {
    opened = openSqlite(file, {
      readonly: options.readonly,
      create: options.create,
      busyTimeoutMs: options.busyTimeoutMs ?? 5_000,
      durability: options.durability,
    });
    return new SqliteStore(opened, file, options);
  } catch (error) {
    opened?.db.close();
    throw missingFolderError(file, error) ?? wrap(`open ${file}`, error, file);
  }
}

/** The error when `file`'s folder does not exist (SQLite creates the file, never its folder), else undefined. */
function missingFolderError(file: string, error: unknown): ObeliskError | undefined {
  if (ObeliskError.is(error) || file === ":memory:" || file.startsWith("file:")) return undefined;
  const folder = dirname(resolve(file));
  if (existsSync(folder)) return undefined;
  return new ObeliskError(
    "STORE_ERROR",
    `cannot open the SQLite store ${file}: its folder ${folder} does not exist`,
    {
      cause: error,
      hint: `create the folder first (mkdirSync(${JSON.stringify(dirname(file))}, { recursive: true })): the store creates its file, not its folder`,
      data: { reason: "no-folder", file },
    },
  );
}
