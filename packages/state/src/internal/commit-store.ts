import type { JsonObject, ThreadId } from "@obelisk/core";
import { ObeliskError, WriteJournal } from "@obelisk/core";
import type {
  CallCommit,
  CallRecord,
  CommitResult,
  NumberedCommitOptions,
  NumberedCommitResult,
  RemovalResult,
  RemovalTarget,
  StateWrite,
  ThreadInfo,
  Tombstone,
} from "../store-types.js";
import { isCommitFailure } from "./commit-failure.js";
import { checkThreadId } from "./history-arguments.js";
import { ModelCache } from "./model-cache.js";
import { planCommit, type RecordBounds } from "./plan-commit.js";
import { planRemoval } from "./plan-removal.js";
import { createStateValidator, type StateValidator } from "./state-validator.js";
import type { TombstonesBelow } from "./superseded-below.js";
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
/** The answer of a removal of a thread the store does not hold. */
const NOTHING_REMOVED: RemovalResult = Object.freeze({ ok: true, removed: Object.freeze([]) });
/** The state of a thread the store does not hold. */
const NO_STATE: JsonObject = Object.freeze({});

/**
 * The middle of the stores' shared logic ({@link CachedStore} builds on it): per-thread cached models
 * ({@link ModelCache}: folded state + variables) and every change persisted through them — commits (the
 * hot path), numbered commits and removals (only an accepted change creates the thread, gives it a schema
 * or takes a call number: decision record 0022), and `mutate` for the lifecycle's changes — each
 * re-planned against fresh storage when another writer got there first. A backend loads models and
 * persists changes atomically.
 */
export abstract class CommitStore extends ModelCache {
  /** The journal of the commit being planned (empty between commits). */
  private readonly journal = new WriteJournal();
  /** What a commit's record keeps (the store's `recordResultBytes` and `recordParamsBytes`). */
  private readonly recordBounds: RecordBounds = {
    resultBytes: this.recordResultBytes,
    paramsBytes: this.recordParamsBytes,
    defersCallHash: this.defersCallHash(),
  };
  /**
   * The last commit time and its ISO text: commits in one millisecond share it. The store's own entry, not
   * core's `isoTime`, whose two entries hold a call's start and end times as the scheduler formats them.
   */
  private commitMs = Number.NaN;
  private commitDate = "";
  /** The backend's {@link stateTombstonesBelow}, as the commit planner asks it. */
  private readonly tombstonesBelow: TombstonesBelow = (model, write) =>
    this.stateTombstonesBelow(model, write);
  /** Saves thread information (creation, schema). */
  protected abstract saveThread(model: ThreadModel): void;
  /**
   * Persists a change atomically, with the commit's `extras` (thread creation, schema, call number);
   * returns false, persisting nothing, when storage moved past `model` (another writer).
   */
  protected abstract persist(model: ThreadModel, change: ThreadChange, extras?: CommitExtras): boolean;
  /** The number the thread's counter gives next (1 for a thread the store does not hold); creates nothing. */
  protected abstract peekCallNumber(threadId: ThreadId): number;
  /** Reads a tombstone. */
  protected abstract readTombstone(threadId: ThreadId, reference: string): Tombstone | undefined;
  /** References of the state tombstones strictly below a write's path in the model's thread (none: empty). */
  protected abstract stateTombstonesBelow(model: ThreadModel, write: StateWrite): readonly string[];

  abstract reserveCallNumbers(threadId: ThreadId, count: number): number;

  /**
   * True when the backend fills in the call hash of a record sent without one later (`CallCommit.callHashOf`,
   * the memory store); otherwise the record gets it at commit (SQLite persists it with the row).
   */
  protected defersCallHash(): boolean {
    return false;
  }

  /** A model for a thread the store does not hold: neither saved nor cached (a commit creates it). */
  private newModel(threadId: ThreadId): ThreadModel {
    checkThreadId(threadId); // a thread is created only under an id every store keeps as it is (0093)
    return createThreadModel({ threadId, createdAt: new Date(this.now()).toISOString() }, undefined);
  }

  /** The cached model of a thread, loading or creating it. */
  protected model(threadId: ThreadId): ThreadModel {
    const stored = this.storedModel(threadId);
    if (stored !== undefined) return stored;
    const model = this.newModel(threadId);
    this.saveThread(model);
    this.cacheModel(threadId, model);
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
    const planned = planCommit(
      model,
      commit,
      nowMs,
      this.commitDate,
      journal,
      this.tombstonesBelow,
      this.recordBounds,
    );
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
    if (extras.create === true) this.cacheModel(model.threadId, model);
    return COMMITTED;
  }
}

/** The error of a commit that found its thread changed by another writer {@link MAX_STALE_RETRIES} times. */
function keepsChanging(threadId: ThreadId): ObeliskError {
  return new ObeliskError("STORE_ERROR", `thread "${threadId}" keeps changing under this store; try again`);
}
