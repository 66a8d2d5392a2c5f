import type {
  CallId,
  JsonObject,
  JsonValue,
  OutputMethod,
  Path,
  PlanHash,
  RunId,
  ThreadId,
} from "@obelisk/core";
import type { LockHolder } from "./lock-holder.js";

/** A value that may or may not be a promise (hot-path store methods return this so sync backends pay no await). */
export type Awaitable<T> = T | Promise<T>;

/** Final status of one call (SPEC §7). */
export type CallStatus =
  | "succeeded"
  | "failed"
  | "blocked"
  | "waiting"
  | "satisfied"
  | "rejected"
  | "deferred"
  | "cancelled";

/**
 * Status of a run. `running` only while it is in progress: a run holds its thread's lock from before its
 * record is created until after it is finished, so a record still `running` while nobody holds the lock
 * belongs to a run whose process stopped (a crash, a kill). The built-in stores mark such a record
 * `interrupted` (with a `reason`) when they find it so: when the thread is locked again, or when the record
 * is read (`getRun`, `listRuns`). `interrupted` extends SPEC §7's run statuses; `engine.resume` continues
 * such a run (and marks it `cancelled`).
 */
export type RunStatus = "running" | "succeeded" | "failed" | "cancelled" | "interrupted";

/** Every run status, in the order of {@link RunStatus}. */
export const RUN_STATUSES: readonly RunStatus[] = Object.freeze([
  "running",
  "succeeded",
  "failed",
  "cancelled",
  "interrupted",
]);

/** An error as recorded (and as written to a failure branch). */
export interface RecordedError {
  /** Error class name (`Error`, `TypeError`, …). */
  readonly name: string;
  /** Message. */
  readonly message: string;
  /** Stable code when known (`TIMEOUT`, `OUTPUT_NOT_JSON`, a tool's own code, …). */
  readonly code?: string;
  /** Extra JSON data attached by the tool. */
  readonly data?: JsonValue;
  /**
   * The stack of an `Error` a tool threw, for the host (events, `runs.show`, the CLI's `--verbose`): never
   * in a failure branch's value, the run result or anything the model reads (decision 0049).
   */
  readonly stack?: string;
}

/** One write into the state: a target path, a method and a value. */
export interface StateWrite {
  /** Path below the `state` root (non-empty). */
  readonly path: Path;
  /** How the value combines with what is there. */
  readonly method: OutputMethod;
  /** The value (JSON). */
  readonly value: JsonValue;
  /** The reference text of the target (`†state.user.name`). */
  readonly reference: string;
}

/** The permanent record of one call in one run (SPEC §8). */
export interface CallRecord {
  /** Thread. */
  readonly threadId: ThreadId;
  /** Run. */
  readonly runId: RunId;
  /** Call id. */
  readonly callId: CallId;
  /** Tool name. */
  readonly tool: string;
  /** Outcome. */
  readonly status: CallStatus;
  /** Alternative written, when the output path has `||`. */
  readonly branch?: number;
  /** Attempts made (0 when never dispatched). */
  readonly attempts: number;
  /** ISO time the first attempt started. */
  readonly startedAt?: string;
  /** ISO time the call ended. */
  readonly endedAt?: string;
  /** Hash of tool + resolved parameters + output path + method: the "satisfied" key. Only for completed calls. */
  readonly callHash?: string;
  /**
   * Resolved parameters, when the call was dispatched: trimmed when larger than the store's
   * `recordParamsBytes` (see {@link CallRecord.droppedParamsBytes}).
   */
  readonly params?: JsonValue;
  /** Canonical `_outputPath` text, if any. */
  readonly outputPath?: string;
  /** Output method. */
  readonly outputMethod: OutputMethod;
  /**
   * The value written (or stored under `†calls.<id>`); kept so a satisfied call can re-apply it, while the
   * thread holds a value the call wrote or when it is small (see {@link CallRecord.droppedResultBytes}).
   */
  readonly result?: JsonValue;
  /** References written, in order. */
  readonly wrote: readonly string[];
  /** The error of a failed call, or of a failure routed to the last alternative. */
  readonly error?: RecordedError;
  /** Why a call is blocked / waiting / rejected / cancelled. */
  readonly reason?: string;
  /**
   * A `satisfied` call's: the run of the completed record that satisfied it (the `satisfiedBy` of its
   * `call-end` event), so `resume` can tell its own record in the chain from another run's without walking
   * the chain (decision 0079). Absent on records written before this field.
   */
  readonly satisfiedBy?: RunId;
  /**
   * A `satisfied` call's that stored nothing under its own id: the id of the call whose stored output holds
   * its value (`†calls.<outputId>`: a re-sent call without `_id`, decision 0102), as its `call-end` event
   * and run result say. Absent otherwise, and on records written before this field.
   */
  readonly outputId?: CallId;
  /** Call description (`_description`). */
  readonly description?: string;
  /**
   * Bytes (JSON) of a `result` the store no longer keeps (decision record 0029): nothing the call wrote is
   * still in the thread — overwritten, evicted, removed by `unsetValue`, reset, or (a `satisfied` call
   * whose targets already held its value) never written — and the result was larger than the store's
   * `recordResultBytes`. Such a record has neither `result` nor `callHash`: it no longer makes a re-sent
   * call `satisfied`, so that call runs again.
   */
  readonly droppedResultBytes?: number;
  /**
   * Bytes (JSON) of the parameters the call was dispatched with, when they were larger than the store's
   * `recordParamsBytes` (decision record 0034): `params` then holds them with every part larger than that
   * replaced by `null`, or is absent when even so they were larger. The call hash was computed from the
   * whole parameters: the record makes a re-sent call `satisfied` as before.
   */
  readonly droppedParamsBytes?: number;
  /**
   * The parameters the plan resolved to, when the host's confirm hook answered `modify` (`params` then holds
   * the hook's, the ones the tool ran with). Trimmed as `params` are; left out when even so too large.
   */
  readonly plannedParams?: JsonValue;
}

/** Everything one call's completion changes, committed atomically (SPEC §8: durable per call). */
export interface CallCommit {
  /** The call's record. */
  readonly record: CallRecord;
  /** State writes, applied in order. */
  readonly writes: readonly StateWrite[];
  /** The output stored under `†calls.<id>` (calls without `_outputPath` only). */
  readonly output?: JsonValue;
  /**
   * Largest value the commit may write or store as output, in bytes of JSON: the engine's `maxValueBytes`
   * (default 64 MiB). The record's fields are held to the larger of it and the default, so a record is
   * never refused because of a small limit.
   */
  readonly maxValueBytes?: number;
  /**
   * Computes the record's `callHash` from the record (its tool, method, output path and parameters). Given
   * only to a store that has {@link StateStore.holdsCompletedOf}, with a `succeeded` record sent without
   * `callHash`: the store fills the hash in before the record is read, looked up or pruned (the memory store
   * does it on the first of these), so records read back are the same as if it had been given. It must be
   * called with the record as committed (before the store trims its parameters or strips its values), and it
   * is a function: a store across a process boundary cannot take it, so it should not have
   * `holdsCompletedOf`. A wrapper around `commitCall` (an audit log, a second copy) sees such records
   * without `callHash`.
   */
  readonly callHashOf?: ((record: CallRecord) => string) | undefined;
  /**
   * True when the caller hands `record` over: built for this commit, unfrozen, its fields in the order a
   * stored record has them (`threadId`, `runId`, `callId`, `tool`, `status`, `attempts`, `startedAt`,
   * `endedAt`, `callHash`, `params`, `outputPath`, `outputMethod`, `result`, `wrote`), and never read or
   * changed by the caller again. A store that keeps records as objects (the memory store) may then keep
   * this one itself (frozen, or filled in through {@link callHashOf} first) instead of a copy, when its
   * fields are what the copy would hold; any other record is copied as before.
   */
  readonly recordHandedOver?: boolean;
}

/** Result of a commit: refused writes leave the store unchanged. */
export type CommitResult =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly error: {
        readonly code: "OUTPUT_SCHEMA_VIOLATION" | "OUTPUT_TOO_LARGE" | "OUTPUT_WRITE_FAILED";
        readonly message: string;
        readonly reference?: string;
      };
    };

/**
 * The answer of {@link StateStore.commitNumbered}: the commit's answer, with the call number it took when
 * accepted.
 */
export type NumberedCommitResult =
  | { readonly ok: true; readonly callNumber: number }
  | Extract<CommitResult, { readonly ok: false }>;

/** Options of {@link StateStore.commitNumbered}. */
export interface NumberedCommitOptions {
  /**
   * The state schema the thread holds from this commit on, as `openThread(threadId, { stateSchema })` gives
   * it: the writes are checked against it, and the thread takes it only with the accepted commit (a schema
   * of the same JSON text as the thread's changes nothing).
   */
  readonly stateSchema?: JsonObject | undefined;
}

/** What {@link StateStore.removeNumbered} removes: a `†state` path below the root and its reference text. */
export interface RemovalTarget {
  /** The path below `†state` (non-empty). */
  readonly path: Path;
  /** Its reference text as `formatReference("state", path)` gives it (`†state.approvals.refund`). */
  readonly reference: string;
}

/**
 * The answer of {@link StateStore.removeNumbered}: the variables removed (none: nothing was there, nothing
 * changed and no number was taken) with the call number the removal took, or the refusal.
 */
export type RemovalResult =
  | { readonly ok: true; readonly removed: readonly string[]; readonly callNumber?: number }
  | Extract<CommitResult, { readonly ok: false }>;

/** A run as recorded. */
export interface RunRecord {
  /** Run id. */
  readonly runId: RunId;
  /** Thread. */
  readonly threadId: ThreadId;
  /** Plan hash. */
  readonly planHash: PlanHash;
  /** The plan document as submitted (so `resume` can re-run it). */
  readonly plan: JsonValue;
  /** The run's input. */
  readonly input: JsonValue;
  /**
   * The first automatic id number (`<tool>$<n>`) the plan was compiled with, when it has calls without
   * `_id`: `resume` numbers them the same, so a re-run call keeps its id and `ctx.idempotencyKey`.
   */
  readonly firstAutoIdNumber?: number;
  /** The run this one resumes (`engine.resume`), when it is a resume: a resume of it continues the chain. */
  readonly resumeOf?: RunId;
  /**
   * On a resume, the first run of its chain (the run the resumes started from, which has no `resumeOf`), so
   * a run of the chain is told from another run of the same plan without walking the chain (decision 0079).
   * Absent on a run that resumes nothing, and on a resume of a chain recorded before this field.
   */
  readonly resumeRoot?: RunId;
  /**
   * A streaming run (`engine.open`), or a resume of one: its plan is the calls it accepted, which `resume`
   * runs as the stream would have (a reference nothing among them writes fails its call REF_UNRESOLVED
   * instead of refusing the whole plan).
   */
  readonly streamed?: boolean;
  /** Status. */
  readonly status: RunStatus;
  /** ISO start time. */
  readonly startedAt: string;
  /**
   * ISO end time. For an `interrupted` run, the time the store found it so (when its process stopped is
   * not known).
   */
  readonly endedAt?: string;
  /**
   * Why the run ended so: why it is `interrupted` (which lock, which process; kept when `resume` then
   * cancels it), or the reason `finishRun` was given (a run `engine.close()` stopped).
   */
  readonly reason?: string;
}

/** Options of {@link StateStore.listRuns}. */
export interface RunsOptions {
  /** Only this thread's runs. */
  readonly threadId?: ThreadId | undefined;
  /** At most this many (a whole number >= 0; leave it out for all). */
  readonly limit?: number | undefined;
  /** Only runs of this status (one of {@link RUN_STATUSES}). */
  readonly status?: RunStatus | undefined;
  /**
   * A cursor: only the runs recorded before this one (after it in the newest-first order), so the last run
   * of a page asks for the next page; runs recorded meanwhile never shift it. A run the store does not hold
   * is RUN_NOT_FOUND (pruned or deleted since, or a typo), one of another thread than `threadId` USAGE.
   */
  readonly before?: RunId | undefined;
}

/**
 * A run without its plan and input (`listRunSummaries`, the engine's `runs.list({ plans: false })`, decision
 * 0104): what a listing of many runs needs. `calls`: how many calls its plan holds (a streaming run's: the
 * calls accepted so far).
 */
export type RunSummary = Omit<RunRecord, "plan" | "input"> & { readonly calls: number };

/** The plan a run ended with, when it was not known at its start (a streaming run's calls). */
export interface FinalPlan {
  /** The plan document (`{ type: "plan", plan: [calls] }`). */
  readonly plan: JsonValue;
  /** Its hash. */
  readonly planHash: PlanHash;
}

/** Options of {@link StateStore.finishRun}. */
export interface FinishRunOptions {
  /** Why the run ended with this status; stored as the record's `reason` (replacing one it had). */
  readonly reason?: string | undefined;
}

/** One entry of a thread's write log. */
export interface WriteLogEntry {
  /** Monotonic sequence number within the thread. */
  readonly seq: number;
  /** Run. */
  readonly runId: RunId;
  /** Writing call id and tool. */
  readonly call: { readonly id: string; readonly tool: string };
  /** ISO time. */
  readonly date: string;
  /**
   * The write. For `op: "unset"` the path was removed (an eviction, or `unsetValue`: then `call` is the
   * `obelisk-unset$<n>` call); `method`/`value` are then `set`/`null`.
   */
  readonly write: StateWrite;
  /**
   * Internal entries that are not tool writes: `unset` removes `write.path` from the state (a variable
   * was evicted or removed), `reset` clears the whole state. Absent for ordinary writes.
   */
  readonly op?: "unset" | "reset";
  /**
   * True when the store no longer keeps the write's value (decision record 0029): a later write or removal
   * replaced all of it. `write.value` is then a stand-in of the same kind (`{}`, `[]` or `null`), which
   * folds the way the value did for every later entry: the log still folds to the state.
   */
  readonly compacted?: true;
}

/** Metadata of one variable: a written state path or a stored call output (SPEC §8). */
export interface VariableMeta {
  /** The reference to use (`†state.user.summary`, `†calls.fetch$1`). */
  readonly reference: string;
  /** `state` for written paths, `calls` for stored call outputs. */
  readonly scope: "state" | "calls";
  /** JSON type name. */
  readonly type: string;
  /** Size of the JSON, in bytes. */
  readonly bytes: number;
  /** Item count: array length, object key count or string length. */
  readonly count?: number;
  /** What `count` counts. */
  readonly countUnit?: "items" | "keys" | "characters";
  /**
   * The `_description` of the call that wrote it; a later write without one keeps it, one with one replaces
   * it. Absent when no write gave one: the tool's description is not used (it describes the tool, not
   * this value).
   */
  readonly description?: string;
  /**
   * The call that last wrote this path (or, for `†calls.<id>`, made the output). A write below the path (or
   * a deep `merge` into it) refreshes the facts, `version` and `updatedAt` but keeps the writer.
   */
  readonly writer: { readonly callId: string; readonly tool: string };
  /**
   * The run of {@link writer}'s call (with it, it names one write): like the writer, kept when a later
   * run writes only below the path, so it is not always the run that changed the value last.
   */
  readonly runId: string;
  /** ISO creation time. */
  readonly createdAt: string;
  /** ISO last update time. */
  readonly updatedAt: string;
  /** Version, +1 per update. */
  readonly version: number;
  /** Bounded preview, computed at write time. */
  readonly preview: string;
}

/** A stored value was evicted: reading it gives REF_EVICTED with when and why. */
export interface Tombstone {
  /** The reference that was evicted. */
  readonly reference: string;
  /** ISO time of eviction. */
  readonly evictedAt: string;
  /** Why (`keepLastN`, `maxVariables`, `maxBytes`, `maxAgeMs`, `reset`, …; `unset`: removed by `unsetValue`). */
  readonly reason: string;
}

/** Retention policy, applied after a run (never during one). */
export interface RetentionPolicy {
  /** Max number of state variables kept. */
  readonly maxVariables?: number | undefined;
  /** Max total bytes of state variables. */
  readonly maxBytes?: number | undefined;
  /** Max age since last update, ms. */
  readonly maxAgeMs?: number | undefined;
  /** Max stored call outputs kept. Default 100. */
  readonly maxCallOutputs?: number | undefined;
  /** Max total bytes of stored call outputs. */
  readonly maxCallOutputBytes?: number | undefined;
  /** Max age of a stored call output, ms. Default 60 minutes. */
  readonly maxCallOutputAgeMs?: number | undefined;
}

/** Information about a thread. */
export interface ThreadInfo {
  /** Thread id. */
  readonly threadId: ThreadId;
  /** JSON Schema the state must satisfy, if any. */
  readonly stateSchema?: JsonObject;
  /** ISO creation time. */
  readonly createdAt: string;
}

/** A per-thread exclusive lock held by a run. */
export interface RunLock {
  /**
   * Releases the lock (idempotent). When a backend's cross-process part fails to release, the lock is
   * still free in this process and the error is thrown; calling `release` again retries that part
   * (decision 0093).
   */
  release(): Awaitable<void>;
}

/** Statistics for a thread or a whole store. */
export interface StoreStats {
  /** Threads counted. */
  readonly threads: number;
  /** State variables and their bytes. */
  readonly variables: number;
  /** Bytes of state variables. */
  readonly variableBytes: number;
  /** Stored call outputs. */
  readonly callOutputs: number;
  /** Bytes of stored call outputs. */
  readonly callOutputBytes: number;
  /** Runs recorded. */
  readonly runs: number;
}

/**
 * Options of {@link StateStore.pruneRuns}: which finished runs go (at least one of `keepLast`, `olderThanMs`);
 * `running` and `interrupted` runs always stay (an interrupted one until a resume or `runs.cancel` ends it).
 */
export interface PruneRunsOptions {
  /** Only this thread's runs (default: every thread's). */
  readonly threadId?: ThreadId | undefined;
  /** Keep the newest `keepLast` runs of each thread, whatever their status (a whole number >= 0). */
  readonly keepLast?: number | undefined;
  /** Only runs that ended more than this many ms ago by the store's clock (a whole number >= 0). */
  readonly olderThanMs?: number | undefined;
}

/**
 * Automatic pruning of a thread's run history after each run ({@link StateStore.pruneHistory}, the engine's
 * `history` option; decision record 0075): at least one of the two. Both given: a run goes when both select
 * it, as for `pruneRuns`.
 */
export interface HistoryPolicy {
  /** Keep the thread's newest `keepRuns` runs, whatever their status (a whole number >= 1; default 1). */
  readonly keepRuns?: number | undefined;
  /** Only runs that ended more than this many ms ago (a number >= 0). */
  readonly olderThanMs?: number | undefined;
}

/** What {@link StateStore.pruneRuns} removed. */
export interface PruneRunsResult {
  /** The runs removed, newest first. */
  readonly runIds: readonly RunId[];
  /**
   * Call records removed with them, and the records of host edits removed (`setValue`, `unsetValue`:
   * under the shared run ids `obelisk.set`, `obelisk.unset`; decision record 0034).
   */
  readonly callRecords: number;
  /**
   * Call records of those runs kept: a `succeeded` record whose value the thread still holds (a write
   * still in the state, or its stored output), so the call stays `satisfied` when its plan is sent again.
   * `listCallRecords` of the removed run still answers them.
   */
  readonly keptCallRecords: number;
  /** Threads left alone because a run held their lock (none of their runs is removed while one runs). */
  readonly busyThreads: readonly ThreadId[];
}

/** Options of {@link StateStore.deleteThread}. */
export interface DeleteThreadOptions {
  /** How long to wait for a run that holds the thread's lock, ms (default 0: refused at once). */
  readonly waitMs?: number | undefined;
  /** Gives up waiting for the lock (THREAD_BUSY with `data.cancelled`), as `lockThread` does. */
  readonly signal?: AbortSignal | undefined;
}

/** What {@link StateStore.deleteThread} removed. */
export interface ThreadDeletion {
  /** False when the store did not hold the thread (nothing was removed). */
  readonly deleted: boolean;
  /** Run records removed. */
  readonly runs: number;
  /** Call records removed (of its runs, and edits such as `setValue` recorded under other run ids). */
  readonly callRecords: number;
  /** Variables removed: state variables and stored call outputs. */
  readonly variables: number;
}

/**
 * What {@link StateStore.vacuum} did to the store file: its size on disk before and after, in bytes, the
 * main file and its `-wal` together (the `-wal` keeps its largest size until a checkpoint truncates it,
 * often more than the file itself; the fixed-size `-shm` index is left out).
 */
export interface VacuumResult {
  /** Bytes of the file and its `-wal` before the `VACUUM` (as on disk when it was asked). */
  readonly bytesBefore: number;
  /** Bytes of the file and its `-wal` after it (the `-wal` emptied by a checkpoint, unless a read kept it). */
  readonly bytesAfter: number;
  /**
   * Of `bytesAfter`, the bytes still in the `-wal`: a read of another connection (another process's run)
   * kept the last checkpoint from emptying it, so the rewritten copy waits there until a later checkpoint.
   * 0 when it was emptied; absent for a database without a file of its own.
   */
  readonly walBytesAfter?: number;
}

/** The store contract every backend implements and the conformance suite checks. */
export interface StateStore {
  /** Backend name (`memory`, `sqlite`). */
  readonly backend: string;
  /** Creates the thread if needed; sets its state schema when given. */
  openThread(
    threadId: ThreadId,
    options?: { readonly stateSchema?: JsonObject | undefined },
  ): Promise<ThreadInfo>;
  /** The folded state of a thread (frozen; `{}` for a new thread). */
  readState(threadId: ThreadId): Awaitable<JsonObject>;
  /**
   * Takes the per-thread run lock; throws ObeliskError THREAD_BUSY (or waits up to `waitMs`). A `signal`
   * aborted when the call would wait, or during the wait, gives it up: THREAD_BUSY with `data.cancelled`.
   * A thread id that is not well-formed UTF-16 (a lone surrogate) is USAGE (decision 0093).
   */
  lockThread(
    threadId: ThreadId,
    options?: { readonly waitMs?: number | undefined; readonly signal?: AbortSignal | undefined },
  ): Promise<RunLock>;
  /**
   * Who holds the thread's run lock, read without taking it: never takes, refreshes or clears a lock, and
   * works on a store opened read-only; undefined when no one does. A SQLite lock row whose holder is known
   * to be gone (a process of this host that is not alive; a row of this thread that none of its stores
   * holds) is no holder: the next `lockThread` takes it over at once. A row whose heartbeat is only stale
   * is still answered (its process may be hung): `heartbeatAgeMs > staleMs` then. A thread the store does
   * not hold answers undefined and is not created. A thread id that is not a (well-formed) string is USAGE.
   * Optional: both built-in stores have it.
   */
  lockHolder?(threadId: ThreadId): Awaitable<LockHolder | undefined>;
  /** Reserves `count` automatic call-id numbers; returns the first. Counters only go up. */
  reserveCallNumbers(threadId: ThreadId, count: number): Awaitable<number>;
  /**
   * The first number the next `reserveCallNumbers` would return, reserving nothing (and creating no thread:
   * 1 for a thread the store does not hold). Optional: the engine uses it to compile a plan with automatic
   * ids once instead of twice on a thread that already has some.
   */
  nextCallNumber?(threadId: ThreadId): Awaitable<number>;
  /**
   * Commits one call as the thread's next automatic call, all or nothing: `build` is given the number the
   * thread's counter gives next (`nextCallNumber`) and returns the commit (its record's call id holds the
   * number). Only an accepted commit takes the number, creates the thread when the store does not hold it
   * and gives it `options.stateSchema`; a refused one changes nothing (SQLite: one transaction). `build` may
   * be called again with another number when another writer took the first meanwhile. Optional: `setValue`
   * uses it, and without it checks the write on a scratch copy of the thread before it reserves a number.
   */
  commitNumbered?(
    threadId: ThreadId,
    build: (callNumber: number) => CallCommit,
    options?: NumberedCommitOptions,
  ): Awaitable<NumberedCommitResult>;
  /**
   * Removes what a `†state` path holds, as the thread's next automatic call (`unsetValue`, `engine.unset`):
   * the variable at the path, or, at a container only writes below it created (no variable at or above
   * it), every variable below it. They go the way eviction removes variables (decision records 0010, 0013):
   * with the variables below them, a tombstone each (reason `unset`), `unset` write-log entries logged as
   * the call `build` records (given the number the counter gives next; the record is stored with them),
   * parents left holding nothing removed, an array element left as a hole. All or nothing, and only a
   * removal takes the number (SQLite: one transaction). Nothing there (a missing path, a hole, a thread the
   * store does not hold): `removed: []`, nothing changed. A state the thread's schema would refuse:
   * `OUTPUT_SCHEMA_VIOLATION`, nothing changed. A path inside another variable's value that is no variable
   * itself is USAGE (thrown). Optional: without it `unsetValue` refuses (USAGE).
   */
  removeNumbered?(
    threadId: ThreadId,
    target: RemovalTarget,
    build: (callNumber: number) => CallRecord,
  ): Awaitable<RemovalResult>;
  /**
   * Records a new run (and creates its thread when the store does not hold it). A run id the store already
   * holds, of any thread and status, is refused with ObeliskError USAGE (`data: { runId }`) and changes
   * nothing: the recorded run is never replaced and no thread is created (SQLite: checked in the transaction
   * that inserts the run).
   */
  createRun(run: RunRecord): Awaitable<void>;
  /**
   * Updates a run's status and end time; `final` replaces its plan document and hash (a streaming run is
   * recorded before its calls arrive, and keeps them this way so `resume` can re-run them). `reason` says
   * why it ended so (a run `engine.close()` stopped: `interrupted`, "its engine was closed") and replaces
   * the record's `reason`; without one the record keeps the reason it had (an `interrupted` run's, when
   * `resume` cancels it). Options that are not `{ reason?: string }` are USAGE and change nothing.
   */
  finishRun(
    runId: RunId,
    status: RunStatus,
    endedAt: string,
    final?: FinalPlan,
    options?: FinishRunOptions,
  ): Awaitable<void>;
  /**
   * Appends calls to the plan document of a `running` run (a streaming run's accepted calls, each made
   * durable before it can run, so `resume` after a crash re-runs what the stream had accepted). Optional:
   * without it a streaming run's calls reach its record only when it finishes.
   */
  appendRunCalls?(runId: RunId, calls: readonly JsonValue[]): Awaitable<void>;
  /** A run by id (a `running` one whose process is gone answers `interrupted`: see {@link RunStatus}). */
  getRun(runId: RunId): Awaitable<RunRecord | undefined>;
  /**
   * Runs, newest first (optionally of one thread, and of one status: `interrupted` finds the runs to
   * resume). `running` runs whose process is gone answer `interrupted` (see {@link RunStatus}).
   */
  listRuns(options?: RunsOptions): Awaitable<readonly RunRecord[]>;
  /**
   * The runs `listRuns` answers for the same options, each without its plan and input and with its call
   * count ({@link RunSummary}): a page of a history of large plans or inputs without reading them (SQLite
   * leaves them out in the query). Optional: both built-in stores have it; without it the engine strips
   * `listRuns`' records (decision 0104).
   */
  listRunSummaries?(options?: RunsOptions): Awaitable<readonly RunSummary[]>;
  /**
   * The runs waiting for a person: those with at least one call record `waiting` (an approval gate, SPEC
   * §7), whatever the run's status, newest first; `threadId`, `status` and `limit` as `listRuns` takes and
   * checks them (`limit` counts waiting runs). A run is listed while its record stays, also after a later
   * run on its thread gave the approval (call records are history). Optional: without it the engine's
   * `runs.list({ waiting: true })` is USAGE; both built-in stores have it.
   */
  listWaitingRuns?(options?: RunsOptions): Awaitable<readonly RunRecord[]>;
  /**
   * The newest run recorded with `resumeOf: runId` (the resume that continued it), read as `getRun` answers
   * it; undefined when none is. Optional: `resume` uses it to find whether a run was resumed already
   * without listing the thread's whole history (SQLite: an index), and lists the thread's runs without it.
   */
  resumedBy?(runId: RunId): Awaitable<RunRecord | undefined>;
  /** The call records of one run, in commit order. */
  listCallRecords(runId: RunId): Awaitable<readonly CallRecord[]>;
  /**
   * The latest completed record with this call hash on this thread (the "satisfied" check). A record that
   * dropped its result (`droppedResultBytes`) has no hash: it is not found.
   */
  findCompletedCall(threadId: ThreadId, callHash: string): Awaitable<CallRecord | undefined>;
  /**
   * The latest `limit` completed records with this call hash on this thread, newest first. Optional: the
   * scheduler asks for it only when the latest record cannot satisfy a call (a record satisfies one call of
   * a run), so two identical calls of a re-sent plan are each satisfied by their own record.
   */
  findCompletedCalls?(threadId: ThreadId, callHash: string, limit: number): Awaitable<readonly CallRecord[]>;
  /**
   * Optional, synchronous: false when the thread holds no `succeeded` record of `tool` that a satisfied
   * lookup could find (true may be an overestimate). A store that has it accepts commits whose `succeeded`
   * record comes without `callHash` and with {@link CallCommit.callHashOf}; the scheduler then skips the
   * call hash and the lookup for calls of tools the thread held no record of when the run first asked. The
   * answer must count records committed without a hash as held (a store that answered from its hash index
   * alone would say false for good, and that tool's calls would never be `satisfied` again), and it is
   * asked once per tool and run (runs on one thread never overlap). The memory store has it (a count by
   * tool per thread); SQLite does not (it persists the hash at commit).
   */
  holdsCompletedOf?(threadId: ThreadId, tool: string): boolean;
  /** Commits one call's completion atomically (validated against the state schema). */
  commitCall(commit: CallCommit): Awaitable<CommitResult>;
  /**
   * Optional group commit: several calls' completions, in order, made durable by one transaction. Each
   * commit is atomic on its own and answered as `commitCall` would (a refused one leaves the others);
   * a storage error throws and none of them is durable. The scheduler uses it for completions that
   * arrive together, and `commitCall` otherwise.
   */
  commitCalls?(commits: readonly CallCommit[]): Awaitable<readonly CommitResult[]>;
  /**
   * A stored call output, a tombstone if evicted, or undefined. An output older than `maxCallOutputAgeMs`
   * is evicted as it is read (not while a run holds the thread): that of `policy` when given (the engine
   * passes its `retention`, decision 0104), else the store's own.
   */
  getCallOutput(
    threadId: ThreadId,
    callId: string,
    policy?: RetentionPolicy,
  ): Awaitable<{ readonly value: JsonValue } | Tombstone | undefined>;
  /** Ids of stored (not evicted) call outputs. */
  listCallOutputIds(threadId: ThreadId): Awaitable<readonly string[]>;
  /**
   * The write log, oldest first: it folds to the state. Compacted from time to time (decision record
   * 0029): an entry a later write or removal of its top-level key replaced is gone, a deeper replaced
   * write keeps its place with a stand-in value (`compacted`), a removal of nothing is gone.
   */
  readWriteLog(threadId: ThreadId): Awaitable<readonly WriteLogEntry[]>;
  /** Variables metadata, newest update first. */
  listVariables(threadId: ThreadId): Awaitable<readonly VariableMeta[]>;
  /**
   * The tombstone of an evicted reference, if any: a thread keeps those of its latest evictions only
   * (at most the store's `maxTombstones`, default 1,000; decision record 0034).
   */
  getTombstone(threadId: ThreadId, reference: string): Awaitable<Tombstone | undefined>;
  /**
   * Clears state, outputs and variables of a thread; its call records stay (run history, without a result
   * over `recordResultBytes`) but no longer make a re-sent call `satisfied`. Counters stay.
   */
  reset(threadId: ThreadId): Promise<void>;
  /** Keeps the n most recently updated variables (and evicts the others with tombstones). */
  keepLastN(threadId: ThreadId, n: number): Promise<void>;
  /** Applies a retention policy now, its fields left out taken from the store's own (the engine calls this after each run). */
  applyRetention(threadId: ThreadId, policy: RetentionPolicy, now: Date): Promise<void>;
  /** Statistics for one thread or the whole store. */
  stats(threadId?: ThreadId): Awaitable<StoreStats>;
  /** Information about a thread, or undefined when it was never opened or written. */
  getThread(threadId: ThreadId): Awaitable<ThreadInfo | undefined>;
  /**
   * Every thread the store holds (opened or written, not deleted), by id in code-unit order (the same order
   * on every backend). Optional: both built-in stores have it; without it the engine's `threads.list` is USAGE.
   */
  listThreads?(): Awaitable<readonly ThreadInfo[]>;
  /**
   * The threads of {@link StateStore.listThreads} idle since `idleSince` (an ISO time), in the same order:
   * those whose newest run ended before it, or, with no run, that were created before it (a newest run
   * `running` while someone may still run it is activity now; one nobody can, or `interrupted`, ended at its
   * last recorded activity: its start or its last call record's end). Optional: both built-in stores have it, reading each thread's newest
   * run by the thread's run index (decision 0104, Amended); without it `threads.list({ idleSince })` asks `listRuns`.
   */
  listIdleThreads?(idleSince: string): Awaitable<readonly ThreadInfo[]>;
  /**
   * Evicts entries older than the age limits (`maxAgeMs`, `maxCallOutputAgeMs`) of `policy`, its fields
   * left out taken from the store's own `retention` option, against the store clock; returns how many were
   * evicted. Called by the read APIs so expiry does not wait for the next write; the engine passes its
   * `retention` before every run and read, so its ages are the ones that hold for it (decision 0104).
   */
  expireStale(threadId: ThreadId, policy?: RetentionPolicy): Promise<number>;
  /**
   * Removes finished run records (`succeeded`, `failed`, `cancelled`, `interrupted`; never a `running`
   * one) of one thread or of every thread: those beyond the newest `keepLast` of their thread and/or that
   * ended more than `olderThanMs` ago (both given: only runs both select). A thread whose lock a run holds
   * is left alone (`busyThreads`). The removed runs' call records go with them, except a `succeeded` record
   * whose value the thread still holds (a write still in the state, or its stored output): it stays, so its
   * call is still `satisfied` when its plan is sent again. A removed record that could still have made a
   * re-sent call `satisfied` — its value overwritten or evicted but small enough to be re-applied (see
   * `recordResultBytes`) — makes that call run again instead (decision record 0029). The records of the
   * thread's host edits (`setValue`, `unsetValue`: no run) go too (decision record 0034) when they hold no
   * value the thread has (the latest edit of a value still held stays) and ended before the start of the
   * oldest run `keepLast` keeps (any time when it keeps none) and/or more than `olderThanMs` ago; a thread
   * a run holds keeps them. Arguments are checked first (USAGE). Optional: both built-in stores have it.
   */
  pruneRuns?(options: PruneRunsOptions): Promise<PruneRunsResult>;
  /**
   * Prunes one thread's run history by `policy` in bounded time (decision record 0075): removes, oldest
   * first, at most 32 (`HISTORY_BATCH`) runs beyond the newest `keepRuns` (default 1) that ended more than
   * `olderThanMs` before `now`, with their call records as `pruneRuns` removes them (host edits' records
   * too). Never a `running` or `interrupted` run, nor one waiting for a person (a `waiting` call record)
   * that no run has resumed yet, nor one a run still `running` or `interrupted` continued (resume after
   * resume: its resume chain reads it). Reads the newest `keepRuns` runs' ids and the oldest candidates only,
   * never the whole history: a longer backlog goes over the next calls. One transaction (SQLite). The
   * caller holds the thread's lock (the engine calls it after each run, before it lets the lock go):
   * without it, `USAGE`. Optional: both built-in stores have it.
   */
  pruneHistory?(threadId: ThreadId, policy: HistoryPolicy, now: Date): Promise<PruneRunsResult>;
  /**
   * Removes a thread entirely: state, write log, variables, stored outputs, tombstones, call records
   * (also edits recorded under other run ids), run records and counters; afterwards the id names a new,
   * empty thread (automatic call ids start again at 1, so `ctx.idempotencyKey`s repeat). Takes the thread's
   * lock first, waiting up to `waitMs` (default 0): while a run holds it, THREAD_BUSY and nothing removed.
   * A thread the store does not hold answers `deleted: false` and creates nothing. Optional: both built-in
   * stores have it.
   */
  deleteThread?(threadId: ThreadId, options?: DeleteThreadOptions): Promise<ThreadDeletion>;
  /**
   * Gives the free space of the store's file back to the file system (SQLite `VACUUM`: the file is
   * rewritten without its free and partly empty pages; a WAL checkpoint before and after, which also
   * empties the `-wal`), and answers the sizes on disk before and after. Refused with THREAD_BUSY
   * (`data.threadId`, `data.holder`), nothing changed, while a run of any process may hold a thread's lock
   * (a row `lockThread` would not take over); a read-only store refuses with `STORE_ERROR` (reason
   * `readonly`). The data, the locks and the threads' cached state are unchanged. Optional: only the SQLite
   * store has it — a memory store has no file, and frees what it removes at once.
   */
  vacuum?(): Promise<VacuumResult>;
  /** Releases resources. */
  close(): Promise<void>;
}
