import type { JsonValue, RunId, ThreadId } from "@obelisk/core";
import { formatReference, ObeliskError } from "@obelisk/core";
import type {
  CallRecord,
  DeleteThreadOptions,
  HistoryPolicy,
  PruneRunsOptions,
  PruneRunsResult,
  RetentionPolicy,
  RunLock,
  RunRecord,
  StateStore,
  StoreStats,
  ThreadDeletion,
  Tombstone,
  VariableMeta,
  WriteLogEntry,
} from "../store-types.js";
import { CommitStore } from "./commit-store.js";
import { definedFields } from "./defined-fields.js";
import { checkThreadId } from "./history-arguments.js";
import { lockedAgainReason } from "./interrupted-runs.js";
import { type EvictionRequest, planEviction, planReset } from "./plan-eviction.js";
import {
  checkHistoryPolicy,
  HISTORY_BATCH,
  type HistoryCandidates,
  historyEditsBefore,
  historyLockError,
  oldEnough,
} from "./prune-history.js";
import { checkPruneRuns, editsPrunedBefore, selectPrunedRuns } from "./prune-runs.js";
import { checkKeepCount, protectNested, selectForKeepLastN, selectForRetention } from "./select-evictions.js";
import { storeClosedError } from "./store-closed.js";
import { ThreadLocks } from "./thread-locks.js";

/** What deleting a thread the store does not hold answers. */
const NOTHING_DELETED: ThreadDeletion = Object.freeze({
  deleted: false,
  runs: 0,
  callRecords: 0,
  variables: 0,
});
/** What a `pruneHistory` that found nothing to remove answers. */
const NOTHING_PRUNED: PruneRunsResult = Object.freeze({
  runIds: Object.freeze([]),
  callRecords: 0,
  keptCallRecords: 0,
  busyThreads: Object.freeze([]),
});
/**
 * The logic every backend shares, in three layers: run history ({@link StoreHistory}), cached models and
 * the changes persisted through them ({@link CommitStore}), and here locking (in-process, with the
 * backend's cross-process part), reads with expiry, and the lifecycle (eviction, `reset`, `keepLastN`,
 * retention). A backend persists `ThreadChange`s atomically and answers the history queries (runs,
 * records, log, outputs, tombstones).
 */
export abstract class CachedStore extends CommitStore implements StateStore {
  protected readonly locks = new ThreadLocks();
  /**
   * The threads whose lock a caller of this store's `lockThread` holds (a run in progress, an edit, a
   * deletion): their models are in use, never dropped from the cache (see `idleModelBound`).
   */
  private readonly lockedHere = new Set<ThreadId>();

  /** Reads a stored call output's value. */
  protected abstract readOutput(threadId: ThreadId, callId: string): JsonValue | undefined;
  abstract findCompletedCall(threadId: ThreadId, callHash: string): CallRecord | undefined;
  abstract readWriteLog(threadId: ThreadId): readonly WriteLogEntry[];
  abstract stats(threadId?: ThreadId): StoreStats;

  /**
   * Takes the thread's lock. The runs of the thread still `running` then are marked `interrupted`: a run
   * holds the lock until its record is finished, so no run of theirs is in progress.
   */
  async lockThread(
    threadId: ThreadId,
    options: { readonly waitMs?: number | undefined; readonly signal?: AbortSignal | undefined } = {},
  ): Promise<RunLock> {
    checkThreadId(threadId);
    this.assertOpen();
    const waitMs = options.waitMs ?? 0;
    await this.locks.acquire(threadId, waitMs, options.signal);
    this.lockedHere.add(threadId);
    let released = false;
    let externalHeld = true;
    const release = (): void => {
      if (released) {
        // a retry after the cross-process part failed; once the thread was locked here again, the row is
        // the new holder's (taken with this store's owner): it releases it, not this retry
        if (externalHeld && !this.locks.isHeld(threadId)) this.releaseExternal(threadId);
        externalHeld = false;
        return;
      }
      released = true;
      this.lockedHere.delete(threadId);
      try {
        this.releaseExternal(threadId);
        externalHeld = false;
      } finally {
        // whatever the cross-process part answered: the thread is free in this process (decision 0093)
        this.locks.release(threadId);
        this.trimModels(); // its model is idle now: the cache's bound counts it
      }
    };
    let takeover: string | undefined;
    try {
      // closed while it waited, or just after it was handed the lock: nothing of the waiter's work begins
      if (this.closed) throw storeClosedError(this.backend, threadId);
      takeover = await this.acquireExternal(threadId, waitMs, options.signal);
    } catch (error) {
      this.lockedHere.delete(threadId);
      this.locks.release(threadId);
      throw this.closed ? storeClosedError(this.backend, threadId) : error;
    }
    try {
      if (this.closed) throw storeClosedError(this.backend, threadId);
      this.refresh(threadId);
      this.interruptRuns(threadId, lockedAgainReason(threadId, takeover), false);
    } catch (error) {
      release();
      throw error;
    }
    return { release };
  }

  /** Makes the cached model current with storage once the lock is held (default: reload it). */
  protected refresh(threadId: ThreadId): void {
    this.invalidate(threadId);
  }

  /**
   * Before a read or change of a thread's cached model outside a commit (a commit checks in its own
   * transaction): drops the model when storage moved past it, so it is reloaded. Default: nothing (the
   * memory store's models are its data).
   */
  protected revalidate(_threadId: ThreadId): void {}

  /** A thread whose lock is held in this store (also one handed to a waiter not yet resumed) keeps its model. */
  protected override modelInUse(threadId: ThreadId): boolean {
    return this.locks.isHeld(threadId);
  }

  protected override cachedModelsInUse(): number {
    let count = 0;
    for (const threadId of this.lockedHere) if (this.models.has(threadId)) count++;
    return count;
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
  /**
   * Releases the cross-process part of the lock. A throw is passed to the caller of `release`, after the
   * in-process part is released; a second `release` calls this again.
   */
  protected releaseExternal(_threadId: ThreadId): void {}

  getCallOutput(
    threadId: ThreadId,
    callId: string,
    policy?: RetentionPolicy,
  ): { readonly value: JsonValue } | Tombstone | undefined {
    this.revalidate(threadId);
    const reference = formatReference("calls", [callId]);
    const entry = this.storedModel(threadId)?.variables.get(reference);
    const maxAge = this.ages(policy).maxCallOutputAgeMs;
    if (entry !== undefined) {
      const expired = maxAge !== undefined && this.now() - entry.updatedMs > maxAge;
      if (expired && !this.lockedByRun(threadId))
        this.evict(threadId, [
          { reference, reason: "maxCallOutputAgeMs", atMs: entry.updatedMs + (maxAge as number) },
        ]);
      else {
        const value = this.readOutput(threadId, callId);
        if (value !== undefined) return { value };
      }
    }
    return this.readTombstone(threadId, reference);
  }

  listCallOutputIds(threadId: ThreadId): readonly string[] {
    this.revalidate(threadId);
    const ids: string[] = [];
    const outputs = this.storedModel(threadId)?.callOutputs.values() ?? [];
    for (const entry of outputs) ids.push(String(entry.path[0]));
    return ids;
  }

  listVariables(threadId: ThreadId): readonly VariableMeta[] {
    this.revalidate(threadId);
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
    this.revalidate(threadId);
    if (this.storedModel(threadId) === undefined) return;
    this.mutate(threadId, (model) => ({ change: planReset(model, this.now()), result: undefined }));
  }

  /** `n` is checked first (USAGE); a thread the store does not hold has nothing to evict: it is not created. */
  async keepLastN(threadId: ThreadId, n: number): Promise<void> {
    checkKeepCount(n);
    this.revalidate(threadId);
    const model = this.storedModel(threadId);
    if (model !== undefined) this.evict(threadId, selectForKeepLastN(model, n));
  }

  async applyRetention(threadId: ThreadId, policy: RetentionPolicy, now: Date): Promise<void> {
    const effective = { ...this.retention, ...definedFields(policy) };
    this.revalidate(threadId);
    const model = this.storedModel(threadId);
    if (model !== undefined) this.evict(threadId, selectForRetention(model, effective, now.getTime()));
  }

  async expireStale(threadId: ThreadId, policy?: RetentionPolicy): Promise<number> {
    this.assertOpen(); // before lockedByRun: SQLite asks its (closed) database whether another process runs
    if (this.lockedByRun(threadId)) return 0;
    const ages = this.ages(policy);
    this.revalidate(threadId);
    const model = this.storedModel(threadId);
    if (model === undefined) return 0;
    return this.evict(threadId, protectNested(model, selectForRetention(model, ages, this.now())));
  }

  /** The age limits expiry on read applies: `policy`'s, its fields left out the store's own (decision 0104). */
  private ages(policy: RetentionPolicy | undefined): RetentionPolicy {
    const { maxAgeMs, maxCallOutputAgeMs } = { ...this.retention, ...definedFields(policy) };
    return {
      ...(maxAgeMs === undefined ? {} : { maxAgeMs }),
      ...(maxCallOutputAgeMs === undefined ? {} : { maxCallOutputAgeMs }),
    };
  }

  /**
   * Removes the runs `runIds` of one thread (finished, its lock free) and their call records but those a
   * re-sent call would be satisfied by (see `StateStore.pruneRuns`); undefined, removing nothing, when a run
   * took the thread's lock meanwhile (SQLite asks again in its transaction). `held`: the caller holds the
   * lock (`pruneHistory`), so it is not asked whether a run holds it.
   */
  protected abstract pruneThread(
    threadId: ThreadId,
    runIds: readonly RunId[],
    editsBefore: number,
    held?: boolean,
  ): { readonly callRecords: number; readonly kept: number } | undefined;
  /**
   * The runs `pruneHistory` may remove from a thread (see {@link HistoryCandidates}), read without going
   * through its whole history: the newest `keepRuns` runs' places, and the oldest `limit` that may go.
   */
  protected abstract historyCandidates(
    threadId: ThreadId,
    keepRuns: number,
    limit: number,
  ): HistoryCandidates;
  /**
   * The threads (of one, or of all) with records of host edits (`HOST_EDIT_RUN_IDS`): `pruneThread`
   * also removes those that ended before `editsBefore` and hold no value the thread has (decision 0034).
   */
  protected abstract editedThreads(threadId: ThreadId | undefined): ReadonlySet<ThreadId>;
  /**
   * The threads (of one, or of all) with records an earlier `pruneRuns` kept of the runs it removed (a
   * value they wrote was still held): `pruneThread` removes those that hold nothing any more, so a prune
   * visits these threads even with no run of theirs to remove (decision record 0034, Amended).
   */
  protected abstract prunedThreads(threadId: ThreadId | undefined): ReadonlySet<ThreadId>;
  /** Removes everything of a thread whose lock the caller holds (see `StateStore.deleteThread`). */
  protected abstract removeThread(threadId: ThreadId): ThreadDeletion;
  /** Throws before a change is tried when the store cannot write (a read-only SQLite store). */
  protected assertWritable(_action: string): void {}

  async pruneRuns(options: PruneRunsOptions): Promise<PruneRunsResult> {
    const query = checkPruneRuns(options);
    this.assertOpen();
    this.assertWritable("prune runs");
    const scope = { threadId: query.threadId, limit: undefined, statuses: undefined, waiting: false };
    const threads = new Set<ThreadId>();
    for (const run of this.queryRuns({ ...scope, statuses: ["running"] })) threads.add(run.threadId);
    for (const threadId of threads) if (!this.lockedByRun(threadId)) this.settleRunning(threadId);
    const byThread = new Map<ThreadId, RunRecord[]>();
    const order = new Map<RunId, number>();
    for (const run of this.queryRuns(scope)) {
      order.set(run.runId, order.size);
      const runs = byThread.get(run.threadId);
      if (runs === undefined) byThread.set(run.threadId, [run]);
      else runs.push(run);
    }
    const nowMs = this.now();
    const runIds: RunId[] = [];
    const busyThreads: ThreadId[] = [];
    let callRecords = 0;
    let keptCallRecords = 0;
    const edited = this.editedThreads(query.threadId);
    for (const threadId of edited) if (!byThread.has(threadId)) byThread.set(threadId, []);
    const swept = this.prunedThreads(query.threadId);
    for (const threadId of swept) if (!byThread.has(threadId)) byThread.set(threadId, []);
    for (const [threadId, runs] of byThread) {
      const pruned = selectPrunedRuns(runs, query, nowMs);
      // host edits (no run) go by time: before the oldest run kept, and/or older than olderThanMs (0034)
      const editsBefore = edited.has(threadId)
        ? editsPrunedBefore(runs, query, nowMs)
        : Number.NEGATIVE_INFINITY;
      if (pruned.length === 0 && editsBefore === Number.NEGATIVE_INFINITY && !swept.has(threadId)) continue;
      const removed = this.lockedByRun(threadId)
        ? undefined
        : this.pruneThread(threadId, pruned, editsBefore);
      if (removed === undefined) {
        if (pruned.length > 0) busyThreads.push(threadId);
        continue;
      }
      for (const runId of pruned) runIds.push(runId);
      callRecords += removed.callRecords;
      keptCallRecords += removed.kept;
    }
    runIds.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    return { runIds, callRecords, keptCallRecords, busyThreads };
  }

  async pruneHistory(threadId: ThreadId, policy: HistoryPolicy, now: Date): Promise<PruneRunsResult> {
    checkThreadId(threadId);
    const query = checkHistoryPolicy(policy, "pruneHistory's policy");
    this.assertOpen();
    this.assertWritable("prune history");
    if (!this.lockedHere.has(threadId)) throw historyLockError(threadId);
    const nowMs = now.getTime();
    const { oldestKept, candidates } = this.historyCandidates(threadId, query.keepRuns, HISTORY_BATCH);
    const pruned = oldEnough(candidates, query, nowMs);
    // host edits go by time as for pruneRuns; the records earlier prunes kept are looked at again (0034)
    const editsBefore = this.editedThreads(threadId).has(threadId)
      ? historyEditsBefore(oldestKept, query, nowMs)
      : Number.NEGATIVE_INFINITY;
    const swept = this.prunedThreads(threadId).has(threadId);
    if (pruned.length === 0 && editsBefore === Number.NEGATIVE_INFINITY && !swept) return NOTHING_PRUNED;
    const removed = this.pruneThread(threadId, pruned, editsBefore, true);
    return {
      runIds: pruned.reverse(),
      callRecords: removed?.callRecords ?? 0,
      keptCallRecords: removed?.kept ?? 0,
      busyThreads: [],
    };
  }

  async deleteThread(threadId: ThreadId, options: DeleteThreadOptions = {}): Promise<ThreadDeletion> {
    if (typeof threadId !== "string")
      throw new ObeliskError("USAGE", "deleteThread needs a thread id (a string)", {
        data: { threadId: typeof threadId },
      });
    this.assertOpen();
    this.assertWritable(`delete thread "${threadId}"`);
    // a thread the store does not hold: nothing to remove, and no lock taken (a SQLite file stays as it was)
    if (this.getThread(threadId) === undefined) return NOTHING_DELETED;
    const lock = await this.lockThread(threadId, options);
    try {
      return this.removeThread(threadId);
    } finally {
      await lock.release();
    }
  }

  /** Also ends every wait for a thread's lock: STORE_CLOSED, the waiter handed no lock. */
  async close(): Promise<void> {
    this.closed = true;
    this.locks.endWaits((threadId) => storeClosedError(this.backend, threadId));
    this.models.clear();
  }
}
