import type { JsonObject, JsonValue, RunId, ThreadId } from "@obelisk/core";
import { formatReference, ObeliskError, WriteJournal } from "@obelisk/core";
import { type Clock, DEFAULT_RETENTION, type StoreOptions } from "../store-options.js";
import type {
  CallCommit,
  CallRecord,
  CommitResult,
  NumberedCommitOptions,
  NumberedCommitResult,
  RemovalResult,
  RemovalTarget,
  RetentionPolicy,
  RunLock,
  RunRecord,
  RunStatus,
  RunsOptions,
  StateStore,
  StateWrite,
  StoreStats,
  ThreadInfo,
  Tombstone,
  VariableMeta,
  WriteLogEntry,
} from "../store-types.js";
import { checkRunId, checkRunsQuery, type StoredRunsQuery } from "./history-arguments.js";
import { interruptedRecord, lockedAgainReason } from "./interrupted-runs.js";
import { isCommitFailure, planCommit } from "./plan-commit.js";
import { type EvictionRequest, planEviction, planReset } from "./plan-eviction.js";
import { planRemoval } from "./plan-removal.js";
import { checkKeepCount, protectNested, selectForKeepLastN, selectForRetention } from "./select-evictions.js";
import { createStateValidator, type StateValidator } from "./state-validator.js";
import type { TombstonesBelow } from "./superseded-below.js";
import { ThreadLocks } from "./thread-locks.js";
import {
  applyChangeToModel,
  type CommitExtras,
  createThreadModel,
  frozenState,
  type ThreadChange,
  type ThreadModel,
} from "./thread-model.js";

const COMMITTED: CommitResult = Object.freeze({ ok: true });
const MAX_STALE_RETRIES = 5;
/** A commit of a thread the store holds, with nothing else to persist. */
const NO_EXTRAS: CommitExtras = Object.freeze({});
/** A commit that creates its thread. */
const CREATES: CommitExtras = Object.freeze({ create: true });
/** The answer of a commit that found storage moved past its model (another writer): plan it again. */
const STALE = Symbol("stale");
/** The statuses a run found `running` may turn out to have: what `listRuns` looks at for either. */
const OPEN_STATUSES: readonly RunStatus[] = Object.freeze(["running", "interrupted"]);
/** The answer of a removal of a thread the store does not hold. */
const NOTHING_REMOVED: RemovalResult = Object.freeze({ ok: true, removed: Object.freeze([]) });
/** The state of a thread the store does not hold. */
const NO_STATE: JsonObject = Object.freeze({});

/**
 * The logic every backend shares: per-thread cached models (folded state + variables), commit planning,
 * lifecycle, expiry and in-process locking. A backend persists `ThreadChange`s atomically and answers the
 * history queries (runs, records, log, outputs, tombstones).
 */
export abstract class CachedStore implements StateStore {
  abstract readonly backend: string;
  protected readonly now: Clock;
  protected readonly retention: RetentionPolicy;
  protected readonly models = new Map<string, ThreadModel>();
  protected readonly locks = new ThreadLocks();
  /** The journal of the commit being planned (empty between commits). */
  private readonly journal = new WriteJournal();
  /**
   * The last commit time and its ISO text: commits in one millisecond share it. The store's own entry, not
   * core's `isoTime`, whose two entries hold a call's start and end times as the scheduler formats them.
   */
  private commitMs = Number.NaN;
  private commitDate = "";
  /** The backend's {@link stateTombstonesBelow}, as the commit planner asks it. */
  private readonly tombstonesBelow: TombstonesBelow = (model, write) =>
    this.stateTombstonesBelow(model, write);
  protected closed = false;

  constructor(options: StoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.retention = { ...DEFAULT_RETENTION, ...options.retention };
  }

  /** Loads a thread's model from storage (undefined: the thread does not exist). */
  protected abstract loadModel(threadId: ThreadId): ThreadModel | undefined;
  /** Saves thread information (creation, schema). */
  protected abstract saveThread(model: ThreadModel): void;
  /**
   * Persists a change atomically, with the commit's `extras` (thread creation, schema, call number);
   * returns false, persisting nothing, when storage moved past `model` (another writer).
   */
  protected abstract persist(model: ThreadModel, change: ThreadChange, extras?: CommitExtras): boolean;
  /** The number the thread's counter gives next (1 for a thread the store does not hold); creates nothing. */
  protected abstract peekCallNumber(threadId: ThreadId): number;
  /** Reads a stored call output's value. */
  protected abstract readOutput(threadId: ThreadId, callId: string): JsonValue | undefined;
  /** Reads a tombstone. */
  protected abstract readTombstone(threadId: ThreadId, reference: string): Tombstone | undefined;
  /** References of the state tombstones strictly below a write's path in the model's thread (none: empty). */
  protected abstract stateTombstonesBelow(model: ThreadModel, write: StateWrite): readonly string[];

  abstract reserveCallNumbers(threadId: ThreadId, count: number): number;
  abstract createRun(run: RunRecord): void;
  abstract finishRun(runId: RunId, status: RunStatus, endedAt: string): void;
  abstract appendRunCalls(runId: RunId, calls: readonly JsonValue[]): void;
  /** A run by id (the id checked already). */
  protected abstract readRun(runId: RunId): RunRecord | undefined;
  /** Run records as stored, newest first (arguments checked already; none marked here). */
  protected abstract queryRuns(query: StoredRunsQuery): readonly RunRecord[];
  /**
   * Why the `running` runs of a thread cannot be in progress (nobody holds its lock, or its holder's
   * process is gone), or undefined when one may be (the lock is held by a live holder, or it cannot be
   * told: another host's holder). Read-only; a run of this store holds the in-process lock.
   */
  protected abstract abandonment(threadId: ThreadId): string | undefined;
  /**
   * Marks the thread's `running` runs `interrupted` for `reason` (their appended calls folded in, as
   * `finishRun` does). With `recheck`, first asks {@link abandonment} again inside the backend's
   * transaction and marks nothing when a holder has appeared meanwhile.
   */
  protected abstract interruptRuns(threadId: ThreadId, reason: string, recheck: boolean): void;
  /** False when the store cannot write: runs found interrupted are answered so, not recorded (read-only). */
  protected recordsInterruptions(): boolean {
    return true;
  }
  /** A run's call records in commit order (the id checked already). */
  protected abstract readCallRecords(runId: RunId): readonly CallRecord[];
  abstract findCompletedCall(threadId: ThreadId, callHash: string): CallRecord | undefined;
  abstract readWriteLog(threadId: ThreadId): readonly WriteLogEntry[];
  abstract stats(threadId?: ThreadId): StoreStats;

  /** A run by id; a `running` one whose process is gone is marked (and answered) `interrupted`. */
  getRun(runId: RunId): RunRecord | undefined {
    this.assertOpen();
    const run = this.readRun(checkRunId(runId));
    return run === undefined ? undefined : this.settled(run, new Map());
  }

  /**
   * Runs, newest first; the same argument checks on every backend (USAGE). `running` runs whose process is
   * gone are marked (and answered) `interrupted`: asked for `running` or `interrupted` runs, every run of
   * the two in scope is looked at first, so the filter sees them as they are.
   */
  listRuns(options?: RunsOptions): readonly RunRecord[] {
    this.assertOpen();
    const { threadId, limit, status } = checkRunsQuery(options);
    const found = new Map<ThreadId, string | undefined>();
    if (status !== "running" && status !== "interrupted") {
      const statuses = status === undefined ? undefined : [status];
      return this.queryRuns({ threadId, limit, statuses }).map((run) => this.settled(run, found));
    }
    const open = this.queryRuns({ threadId, limit: undefined, statuses: OPEN_STATUSES })
      .map((run) => this.settled(run, found))
      .filter((run) => run.status === status);
    return limit === undefined ? open : open.slice(0, limit);
  }

  /**
   * `run` as it stands: a `running` run of a thread whose runs cannot be in progress ({@link abandonment},
   * asked once per thread through `found`) is marked `interrupted` — with every `running` run of that
   * thread, in one transaction that checks again — and read back; a read-only store answers it marked.
   */
  private settled(run: RunRecord, found: Map<ThreadId, string | undefined>): RunRecord {
    if (run.status !== "running") return run;
    const threadId = run.threadId;
    let reason = found.get(threadId);
    if (!found.has(threadId)) {
      reason = this.abandonment(threadId);
      found.set(threadId, reason);
      if (reason !== undefined && this.recordsInterruptions()) this.interruptRuns(threadId, reason, true);
    }
    if (reason === undefined) return run;
    if (!this.recordsInterruptions()) return interruptedRecord(run, reason, this.isoNow());
    return this.readRun(run.runId) ?? run;
  }

  /** The store clock's time, ISO. */
  protected isoNow(): string {
    return new Date(this.now()).toISOString();
  }

  listCallRecords(runId: RunId): readonly CallRecord[] {
    this.assertOpen();
    return this.readCallRecords(checkRunId(runId));
  }

  protected assertOpen(): void {
    if (this.closed) throw new ObeliskError("STORE_CLOSED", `the ${this.backend} store is closed`);
  }

  /** The cached model of a thread the store holds, loading it; undefined (nothing created) for another. */
  protected storedModel(threadId: ThreadId): ThreadModel | undefined {
    this.assertOpen();
    let model = this.models.get(threadId);
    if (model === undefined) {
      model = this.loadModel(threadId);
      if (model !== undefined) this.models.set(threadId, model);
    }
    return model;
  }

  /** A model for a thread the store does not hold: neither saved nor cached (a commit creates it). */
  private newModel(threadId: ThreadId): ThreadModel {
    return createThreadModel({ threadId, createdAt: new Date(this.now()).toISOString() }, undefined);
  }

  /** The cached model of a thread, loading or creating it. */
  protected model(threadId: ThreadId): ThreadModel {
    const stored = this.storedModel(threadId);
    if (stored !== undefined) return stored;
    const model = this.newModel(threadId);
    this.saveThread(model);
    this.models.set(threadId, model);
    return model;
  }

  /**
   * Plans and persists a change, re-planning against fresh storage when another writer got there first.
   * A plan may have changed the model's working tree already; its `undo` reverts it when the change is not
   * persisted (stale storage, or a storage error).
   */
  protected mutate<T>(
    threadId: ThreadId,
    plan: (model: ThreadModel) => { change: ThreadChange; result: T; undo?: () => void } | { result: T },
  ): T {
    for (let attempt = 0; attempt < MAX_STALE_RETRIES; attempt++) {
      const model = this.model(threadId);
      const planned = plan(model);
      if (!("change" in planned)) return planned.result;
      let persisted = false;
      try {
        persisted = this.persist(model, planned.change);
      } finally {
        if (!persisted) planned.undo?.();
      }
      if (persisted) {
        applyChangeToModel(model, planned.change);
        return planned.result;
      }
      this.invalidate(threadId);
    }
    throw keepsChanging(threadId);
  }

  async openThread(
    threadId: ThreadId,
    options: { readonly stateSchema?: JsonObject } = {},
  ): Promise<ThreadInfo> {
    this.assertOpen();
    // compiled first: a schema refused (USAGE) creates no thread
    const validator =
      options.stateSchema === undefined ? undefined : createStateValidator(options.stateSchema);
    const model = this.model(threadId);
    if (options.stateSchema !== undefined) {
      model.validator = validator;
      model.info = { ...model.info, stateSchema: options.stateSchema };
      this.saveThread(model);
    }
    return model.info;
  }

  getThread(threadId: ThreadId): ThreadInfo | undefined {
    this.assertOpen();
    return (this.models.get(threadId) ?? this.loadModel(threadId))?.info;
  }

  /**
   * The thread's state as a frozen snapshot. The working tree is frozen where it is not yet (only the nodes
   * changed since the last read), so a later commit copies the frozen nodes it changes instead of changing
   * them: snapshots never change. O(1) when nothing was written since the last read.
   */
  readState(threadId: ThreadId): JsonObject {
    const model = this.storedModel(threadId);
    return model === undefined ? NO_STATE : frozenState(model);
  }

  /**
   * `mutate` specialised for the hot path (no closure, no wrapper objects per commit): the plan changes
   * the working tree in place, journaled in the store's one reusable journal (commits are synchronous).
   */
  commitCall(commit: CallCommit): CommitResult {
    const threadId = commit.record.threadId;
    for (let attempt = 0; attempt < MAX_STALE_RETRIES; attempt++) {
      // a thread the store does not hold is created by the accepted commit only
      const stored = this.storedModel(threadId);
      const outcome =
        stored === undefined
          ? this.planAndPersist(this.newModel(threadId), commit, CREATES)
          : this.planAndPersist(stored, commit, NO_EXTRAS);
      if (outcome !== STALE) return outcome;
      this.invalidate(threadId);
    }
    throw keepsChanging(threadId);
  }

  /**
   * {@link StateStore.commitNumbered}: the number, the thread's creation and its new schema are persisted
   * with the accepted commit only. The schema is given to the model while the commit is planned (its
   * writes are checked against it) and taken back when the commit is not persisted.
   */
  commitNumbered(
    threadId: ThreadId,
    build: (callNumber: number) => CallCommit,
    options: NumberedCommitOptions = {},
  ): NumberedCommitResult {
    this.assertOpen();
    this.assertNumberable(threadId);
    const schema = options.stateSchema;
    const schemaText = schema === undefined ? undefined : JSON.stringify(schema);
    let validator: StateValidator | undefined;
    for (let attempt = 0; attempt < MAX_STALE_RETRIES; attempt++) {
      const stored = this.storedModel(threadId);
      const model = stored ?? this.newModel(threadId);
      const givesSchema = schemaText !== undefined && schemaText !== JSON.stringify(model.info.stateSchema);
      if (givesSchema) validator ??= createStateValidator(schema as JsonObject);
      const callNumber = this.peekCallNumber(threadId);
      const commit = build(callNumber);
      if (commit.record.threadId !== threadId)
        throw new ObeliskError("USAGE", `a commit of thread "${threadId}" must record that thread`);
      const { info, validator: held } = model;
      if (givesSchema) {
        model.info = { ...info, stateSchema: schema as JsonObject };
        model.validator = validator;
      }
      let outcome: CommitResult | typeof STALE = STALE;
      try {
        outcome = this.planAndPersist(model, commit, {
          create: stored === undefined,
          schema: givesSchema,
          callNumber,
        });
      } finally {
        if (outcome !== COMMITTED) {
          model.info = info;
          model.validator = held;
        }
      }
      if (outcome === COMMITTED) return { ok: true, callNumber };
      if (outcome !== STALE) return outcome as NumberedCommitResult;
      this.invalidate(threadId);
    }
    throw keepsChanging(threadId);
  }

  /**
   * {@link StateStore.removeNumbered}: planned by `planRemoval` (the eviction planner), persisted with the
   * call number in one change; nothing there, a refusal or a thread the store does not hold changes nothing.
   */
  removeNumbered(
    threadId: ThreadId,
    target: RemovalTarget,
    build: (callNumber: number) => CallRecord,
  ): RemovalResult {
    this.assertOpen();
    this.assertNumberable(threadId);
    const isTombstoned = (reference: string): boolean =>
      this.readTombstone(threadId, reference) !== undefined;
    for (let attempt = 0; attempt < MAX_STALE_RETRIES; attempt++) {
      const model = this.storedModel(threadId);
      if (model === undefined) return NOTHING_REMOVED;
      const callNumber = this.peekCallNumber(threadId);
      const record = build(callNumber);
      if (record.threadId !== threadId)
        throw new ObeliskError("USAGE", `a removal of thread "${threadId}" must record that thread`);
      const planned = planRemoval(model, target, record, this.now(), isTombstoned);
      if (!("change" in planned)) return planned;
      if (this.persist(model, planned.change, { callNumber })) {
        applyChangeToModel(model, planned.change);
        return { ok: true, removed: planned.removed, callNumber };
      }
      this.invalidate(threadId);
    }
    throw keepsChanging(threadId);
  }

  /** Throws when this store cannot take call numbers of the thread (a read-only SQLite store). */
  protected assertNumberable(_threadId: ThreadId): void {}

  /**
   * Plans a commit against `model` and persists it with `extras` (the hot path: no closure, no wrapper
   * objects per commit). The plan changes the working tree in place, journaled in the store's one reusable
   * journal (commits are synchronous). A model that `extras` creates is cached once persisted.
   */
  private planAndPersist(
    model: ThreadModel,
    commit: CallCommit,
    extras: CommitExtras,
  ): CommitResult | typeof STALE {
    const journal = this.journal;
    const nowMs = this.now();
    if (nowMs !== this.commitMs) {
      this.commitDate = new Date(nowMs).toISOString();
      this.commitMs = nowMs;
    }
    const planned = planCommit(model, commit, nowMs, this.commitDate, journal, this.tombstonesBelow);
    if (isCommitFailure(planned)) return planned;
    let persisted = false;
    try {
      persisted = this.persist(model, planned, extras);
    } finally {
      if (persisted) journal.clear();
      else journal.rollback();
    }
    if (!persisted) return STALE;
    applyChangeToModel(model, planned);
    if (extras.create === true) this.models.set(model.threadId, model);
    return COMMITTED;
  }

  /**
   * Takes the thread's lock. The runs of the thread still `running` then are marked `interrupted`: a run
   * holds the lock until its record is finished, so no run of theirs is in progress.
   */
  async lockThread(
    threadId: ThreadId,
    options: { readonly waitMs?: number; readonly signal?: AbortSignal } = {},
  ): Promise<RunLock> {
    this.assertOpen();
    const waitMs = options.waitMs ?? 0;
    await this.locks.acquire(threadId, waitMs, options.signal);
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.releaseExternal(threadId);
      this.locks.release(threadId);
    };
    let takeover: string | undefined;
    try {
      takeover = await this.acquireExternal(threadId, waitMs, options.signal);
    } catch (error) {
      this.locks.release(threadId);
      throw error;
    }
    try {
      this.refresh(threadId);
      this.interruptRuns(threadId, lockedAgainReason(threadId, takeover), false);
    } catch (error) {
      release();
      throw error;
    }
    return { release };
  }

  /** Forgets the cached model so the next access reloads it from storage (no-op where the cache is the data). */
  protected invalidate(_threadId: ThreadId): void {}

  /** Makes the cached model current with storage once the lock is held (default: reload it). */
  protected refresh(threadId: ThreadId): void {
    this.invalidate(threadId);
  }

  /** True while a run holds the thread (expiry on read waits until it has ended: SPEC §8). */
  protected lockedByRun(threadId: ThreadId): boolean {
    return this.locks.isHeld(threadId);
  }

  /**
   * Cross-process part of the lock (none in memory); answers who it was taken over from, when it was
   * (a process judged gone or hung), for the reason of the runs that holder left `running`.
   */
  protected async acquireExternal(
    _threadId: ThreadId,
    _waitMs: number,
    _signal?: AbortSignal,
  ): Promise<string | undefined> {
    return undefined;
  }
  /** Releases the cross-process part of the lock. */
  protected releaseExternal(_threadId: ThreadId): void {}

  getCallOutput(threadId: ThreadId, callId: string): { readonly value: JsonValue } | Tombstone | undefined {
    const reference = formatReference("calls", [callId]);
    const entry = this.storedModel(threadId)?.variables.get(reference);
    const maxAge = this.retention.maxCallOutputAgeMs;
    if (entry !== undefined) {
      const expired = maxAge !== undefined && this.now() - entry.updatedMs > maxAge;
      if (expired && !this.lockedByRun(threadId))
        this.evict(threadId, [{ reference, reason: "maxCallOutputAgeMs" }]);
      else {
        const value = this.readOutput(threadId, callId);
        if (value !== undefined) return { value };
      }
    }
    return this.readTombstone(threadId, reference);
  }

  listCallOutputIds(threadId: ThreadId): readonly string[] {
    const ids: string[] = [];
    const outputs = this.storedModel(threadId)?.callOutputs.values() ?? [];
    for (const entry of outputs) ids.push(String(entry.path[0]));
    return ids;
  }

  listVariables(threadId: ThreadId): readonly VariableMeta[] {
    const variables = this.storedModel(threadId)?.variables.values() ?? [];
    return [...variables].reverse().map((entry) => entry.meta);
  }

  getTombstone(threadId: ThreadId, reference: string): Tombstone | undefined {
    this.assertOpen();
    return this.readTombstone(threadId, reference);
  }

  protected evict(threadId: ThreadId, requests: readonly EvictionRequest[]): number {
    if (requests.length === 0) return 0;
    return this.mutate(threadId, (model) => {
      const change = planEviction(model, requests, this.now());
      return { change, result: change.evictions.length };
    });
  }

  /** A thread the store does not hold has nothing to clear: it is not created. */
  async reset(threadId: ThreadId): Promise<void> {
    if (this.storedModel(threadId) === undefined) return;
    this.mutate(threadId, (model) => ({ change: planReset(model, this.now()), result: undefined }));
  }

  /** `n` is checked first (USAGE); a thread the store does not hold has nothing to evict: it is not created. */
  async keepLastN(threadId: ThreadId, n: number): Promise<void> {
    checkKeepCount(n);
    const model = this.storedModel(threadId);
    if (model !== undefined) this.evict(threadId, selectForKeepLastN(model, n));
  }

  async applyRetention(threadId: ThreadId, policy: RetentionPolicy, now: Date): Promise<void> {
    const effective = { ...this.retention, ...policy };
    const model = this.storedModel(threadId);
    if (model !== undefined) this.evict(threadId, selectForRetention(model, effective, now.getTime()));
  }

  async expireStale(threadId: ThreadId): Promise<number> {
    this.assertOpen(); // before lockedByRun: SQLite asks its (closed) database whether another process runs
    if (this.lockedByRun(threadId)) return 0;
    const ages: RetentionPolicy = {
      ...(this.retention.maxAgeMs === undefined ? {} : { maxAgeMs: this.retention.maxAgeMs }),
      ...(this.retention.maxCallOutputAgeMs === undefined
        ? {}
        : { maxCallOutputAgeMs: this.retention.maxCallOutputAgeMs }),
    };
    const model = this.storedModel(threadId);
    if (model === undefined) return 0;
    return this.evict(threadId, protectNested(model, selectForRetention(model, ages, this.now())));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.models.clear();
  }
}

/** The error of a commit that found its thread changed by another writer {@link MAX_STALE_RETRIES} times. */
function keepsChanging(threadId: ThreadId): ObeliskError {
  return new ObeliskError("STORE_ERROR", `thread "${threadId}" keeps changing under this store; try again`);
}
