import type { JsonValue, RunId, ThreadId } from "@obelisk/core";
import { ObeliskError } from "@obelisk/core";
import { CachedStore } from "./internal/cached-store.js";
import { checkStoreOptions } from "./internal/check-store-options.js";
import { fillCallHash } from "./internal/copy-record.js";
import {
  checkFinishOptions,
  checkThreadId,
  recordedRunIdError,
  type StoredRunsQuery,
} from "./internal/history-arguments.js";
import { unheldReason } from "./internal/interrupted-runs.js";
import {
  type CompletedIndex,
  indexUpToDate,
  MemoryCallRecords,
  newCompletedIndex,
  newestOf,
} from "./internal/memory-call-records.js";
import {
  appendCommit,
  appendEntries,
  compactLog,
  newLog,
  readEntries,
  recordsHolding,
} from "./internal/memory-log.js";
import { MemoryRuns } from "./internal/memory-runs.js";
import {
  dropOldestTombstones,
  newThreadData,
  nextCompaction,
  type ThreadData,
} from "./internal/memory-thread-data.js";
import { COMPACT_MIN_BYTES } from "./internal/plan-log-compaction.js";
import { processHolder } from "./internal/process-holder.js";
import { type HistoryCandidates, historyRunOf } from "./internal/prune-history.js";
import { editPruned, HOST_EDIT_RUN_IDS, satisfyingKeys } from "./internal/prune-runs.js";
import { callKey, strippedRecord } from "./internal/strip-record.js";
import { statePathOf } from "./internal/superseded-below.js";
import {
  type CommitExtras,
  type Eviction,
  replacedOutputs,
  type ThreadChange,
  type ThreadModel,
  type VariableEntry,
} from "./internal/thread-model.js";
import { byThreadId } from "./internal/thread-order.js";
import type { LockHolder } from "./lock-holder.js";
import type { StoreOptions } from "./store-options.js";
import type {
  CallRecord,
  FinalPlan,
  FinishRunOptions,
  RunRecord,
  RunStatus,
  StateStore,
  StateWrite,
  StoreStats,
  ThreadDeletion,
  ThreadInfo,
  Tombstone,
  WriteLogEntry,
} from "./store-types.js";

/** The in-memory backend: the cached models are the data; history lives in maps. */
class MemoryStore extends CachedStore {
  readonly backend = "memory";
  private readonly threads = new Map<string, ThreadData>();
  private readonly runs = new MemoryRuns();
  private readonly records = new MemoryCallRecords();

  private data(threadId: string): ThreadData {
    let data = this.threads.get(threadId);
    if (data === undefined) {
      data = newThreadData(threadId);
      this.threads.set(threadId, data);
    }
    return data;
  }

  protected loadModel(): ThreadModel | undefined {
    return undefined;
  }

  protected saveThread(model: ThreadModel): void {
    this.data(model.threadId);
  }

  protected persist(model: ThreadModel, change: ThreadChange, extras?: CommitExtras): boolean {
    const callNumber = extras?.callNumber;
    if (callNumber !== undefined && callNumber !== this.peekCallNumber(model.threadId)) return false;
    // the model is the data: a thread created or given a schema by the commit is the model once cached
    const data = this.data(model.threadId);
    if (callNumber !== undefined) data.callCounter = callNumber;
    if (change.reset === true) {
      // nothing any record wrote is in the thread any more: they keep no large result (decision 0029)
      for (const record of recordsHolding(data.log)) this.strip(data, record);
      data.log = newLog();
      data.plainLog = true;
      data.outputs.clear();
      indexUpToDate(data.index); // the hashes still to fill in, before the index goes
      data.index = newCompletedIndex();
      data.churnBytes = 0;
    }
    // indexed loops: this runs once per commit
    const { evictions, drops, upserts, outputs, log } = change;
    let evicted = 0;
    for (let index = 0; index < evictions.length; index++) {
      const { entry, tombstone } = evictions[index] as Eviction;
      // evicted again: its tombstone is the newest (the oldest go first past maxTombstones)
      data.tombstones.delete(tombstone.reference);
      data.tombstones.set(tombstone.reference, tombstone);
      if (entry.meta.scope === "state") {
        data.statePaths.set(entry.path, tombstone.reference);
        evicted += entry.meta.bytes;
      } else this.dropOutput(data, entry);
    }
    if (data.tombstones.size > this.maxTombstones) dropOldestTombstones(data, this.maxTombstones);
    for (let index = 0; index < drops.length; index++) {
      const entry = drops[index] as VariableEntry;
      if (entry.meta.scope === "calls") this.dropOutput(data, entry);
    }
    if (data.tombstones.size > 0) {
      // a written variable supersedes the tombstones at and above its path (review 7 L2)
      for (let index = 0; index < upserts.length; index++) {
        const entry = upserts[index] as VariableEntry;
        if (entry.meta.scope !== "state") data.tombstones.delete(entry.meta.reference);
        else for (const reference of data.statePaths.takeAlong(entry.path)) data.tombstones.delete(reference);
      }
      const cleared = change.clearedTombstones;
      for (let index = 0; index < cleared.length; index++) {
        const reference = cleared[index] as string;
        const path = statePathOf(reference);
        if (path !== undefined) data.statePaths.delete(path);
        data.tombstones.delete(reference);
      }
    }
    for (let index = 0; index < outputs.length; index++) {
      const output = outputs[index] as ThreadChange["outputs"][number];
      data.outputs.set(output.callId, output.value);
    }
    if (outputs.length > 0)
      for (const entry of replacedOutputs(model, change) ?? []) this.stripOwner(data, entry);
    if (log.length > 0) {
      appendEntries(data.log, log);
      data.plainLog = false;
    }
    const record = change.record;
    const commitLog = change.commitLog;
    if (commitLog !== undefined && record !== undefined) {
      if (!commitLog.newKeys) data.plainLog = false;
      appendCommit(data.log, commitLog, record);
      data.churnBytes += commitLog.bytes;
    }
    if (record !== undefined) this.records.add(record, data.index, change.callHashOf);
    if (evicted > 0) data.churnBytes += evicted;
    if (evicted >= COMPACT_MIN_BYTES || data.churnBytes > data.compactAt) this.compact(model, data);
    return true;
  }

  /**
   * Compacts the thread's log (decision record 0029): values no later entry needs go, and the records
   * that held only such values keep no large result. Done when one eviction removes at least 256 KiB
   * (`COMPACT_MIN_BYTES`), or when the values written or evicted since the last time reach the state's
   * size (at least 256 KiB).
   */
  private compact(model: ThreadModel, data: ThreadData): void {
    // a log of writes of top-level keys no other entry touches: compacting would keep it all (the bench's
    // DAGs, a thread of fresh keys), and cost a pass over the log each time the state's size was written
    if (!data.plainLog) {
      const { log, emptied } = compactLog(data.log);
      data.log = log;
      for (const record of emptied) this.strip(data, record);
    }
    nextCompaction(data, model);
  }

  /** A stored output goes (evicted, or replaced by another call's): its record keeps no large result. */
  private dropOutput(data: ThreadData, entry: VariableEntry): void {
    data.outputs.delete(String(entry.path[0]));
    this.stripOwner(data, entry);
  }

  /** The record that stored an output the thread no longer holds keeps no large result. */
  private stripOwner(data: ThreadData, output: VariableEntry): void {
    const record = this.records.ofCall(data.threadId, output.meta.runId, String(output.path[0]));
    if (record !== undefined) this.strip(data, record);
  }

  /** Replaces a record none of whose values the thread holds by its copy without a large result. */
  private strip(data: ThreadData, record: CallRecord): void {
    const stripped = strippedRecord(record, this.recordResultBytes);
    if (stripped !== undefined) this.records.replace(record, stripped, data.index);
  }

  protected readOutput(threadId: ThreadId, callId: string): JsonValue | undefined {
    return this.threads.get(threadId)?.outputs.get(callId);
  }

  protected readTombstone(threadId: ThreadId, reference: string): Tombstone | undefined {
    return this.threads.get(threadId)?.tombstones.get(reference);
  }

  protected stateTombstonesBelow(model: ThreadModel, write: StateWrite): readonly string[] {
    return this.data(model.threadId).statePaths.descendants(write.path);
  }

  reserveCallNumbers(threadId: ThreadId, count: number): number {
    this.assertOpen();
    if (!Number.isInteger(count) || count < 1)
      throw new ObeliskError("USAGE", `cannot reserve ${count} call numbers`);
    this.model(threadId);
    const data = this.data(threadId);
    const first = data.callCounter + 1;
    data.callCounter += count;
    return first;
  }

  nextCallNumber(threadId: ThreadId): number {
    this.assertOpen();
    return this.peekCallNumber(threadId);
  }

  protected peekCallNumber(threadId: ThreadId): number {
    return (this.threads.get(threadId)?.callCounter ?? 0) + 1;
  }

  createRun(run: RunRecord): void {
    this.assertOpen();
    if (this.runs.has(run.runId)) throw recordedRunIdError(run.runId);
    this.runs.add(run); // copied first: a run that is not JSON creates no thread
    this.model(run.threadId);
  }

  finishRun(
    runId: RunId,
    status: RunStatus,
    endedAt: string,
    final?: FinalPlan,
    options?: FinishRunOptions,
  ): void {
    this.assertOpen();
    const reason = checkFinishOptions(options);
    const run = this.readRun(runId);
    if (run === undefined) throw new ObeliskError("RUN_NOT_FOUND", `no run "${runId}"`);
    this.runs.end(run, { ...final, status, endedAt, ...(reason === undefined ? {} : { reason }) });
  }

  /** A run of this store holds the thread's lock while it is in progress: without it, none is. */
  protected abandonment(threadId: ThreadId): string | undefined {
    return this.locks.isHeld(threadId) ? undefined : unheldReason(threadId, undefined);
  }

  /** {@link StateStore.lockHolder}: a run of this store, so this thread of this process; no heartbeat. */
  lockHolder(threadId: ThreadId): LockHolder | undefined {
    this.assertOpen();
    return this.locks.isHeld(checkThreadId(threadId)) ? processHolder() : undefined;
  }

  protected interruptRuns(threadId: ThreadId, reason: string): void {
    const ids = this.runs.runningOf(threadId);
    if (ids.length === 0) return;
    const endedAt = this.isoNow();
    for (const runId of ids) {
      const run = this.readRun(runId);
      if (run !== undefined) this.runs.end(run, { status: "interrupted", endedAt, reason });
    }
  }

  appendRunCalls(runId: RunId, calls: readonly JsonValue[]): void {
    this.assertOpen();
    this.runs.append(runId, calls);
  }

  protected readRun(runId: RunId): RunRecord | undefined {
    return this.runs.read(runId);
  }

  protected runPlace(runId: RunId): { readonly threadId: string; readonly place: number } | undefined {
    return this.runs.place(runId);
  }

  protected readResume(runId: RunId): RunRecord | undefined {
    return this.runs.resumeOf(runId);
  }

  protected queryRuns(query: StoredRunsQuery): readonly RunRecord[] {
    return this.runs.query(query, (run) => this.records.hasWaiting(run.threadId, run.runId));
  }

  protected readCallRecords(runId: RunId): readonly CallRecord[] {
    const records = this.records.ofRun(runId);
    // a record whose hash is still to fill in is not frozen yet: only the run's own are filled in (they stay
    // in the pending list, which skips frozen ones), not every record the thread still has to hash
    for (let at = 0; at < records.length; at++) {
      const record = records[at] as CallRecord;
      if (Object.isFrozen(record)) continue;
      const callHashOf = this.threads.get(record.threadId)?.index.callHashOf;
      if (callHashOf === undefined) this.indexOf(record.threadId);
      else fillCallHash(record, callHashOf);
    }
    return [...records];
  }

  /** {@link StateStore.holdsCompletedOf}: a count by tool of the thread's succeeded records with a hash. */
  holdsCompletedOf(threadId: ThreadId, tool: string): boolean {
    this.assertOpen();
    return (this.threads.get(threadId)?.index.tools.get(tool) ?? 0) > 0;
  }

  /** Commits may leave a record's call hash to fill in: it is, on the record's first read, lookup or prune. */
  protected override defersCallHash(): boolean {
    return true;
  }

  findCompletedCall(threadId: ThreadId, callHash: string): CallRecord | undefined {
    return this.indexOf(threadId)?.completed.get(callHash);
  }

  findCompletedCalls(threadId: ThreadId, callHash: string, limit: number): readonly CallRecord[] {
    const index = this.indexOf(threadId);
    return index === undefined ? [] : newestOf(index, callHash, limit);
  }

  /** The thread's satisfied index, brought up to date with the records committed since the last lookup. */
  private indexOf(threadId: ThreadId): CompletedIndex | undefined {
    this.assertOpen();
    const data = this.threads.get(threadId);
    return data === undefined ? undefined : indexUpToDate(data.index);
  }

  readWriteLog(threadId: ThreadId): readonly WriteLogEntry[] {
    this.assertOpen();
    return readEntries(this.threads.get(threadId)?.log ?? newLog());
  }

  /**
   * The removed runs' records go but for those a re-sent call would be satisfied by for a value the
   * thread still holds ({@link satisfyingKeys}): the holders are those of the writes a compaction would
   * keep (the log itself is left as it is, as SQLite leaves it until its next snapshot).
   */
  protected pruneThread(
    threadId: ThreadId,
    runIds: readonly RunId[],
    editsBefore: number,
  ): { callRecords: number; kept: number } {
    const data = this.threads.get(threadId);
    // every record of the thread has its hash from here on (pruning keeps records by hash)
    const index = data === undefined ? newCompletedIndex() : indexUpToDate(data.index);
    // the holders are looked for only when a record that could be kept is met: one with a call hash (as SQLite)
    let found: { readonly keep: ReadonlySet<string>; readonly holding: ReadonlySet<string> } | undefined;
    const holdersNow = (): { readonly keep: ReadonlySet<string>; readonly holding: ReadonlySet<string> } => {
      found ??= this.holdersOf(threadId, index);
      return found;
    };
    const keeps = (record: CallRecord): boolean =>
      record.callHash !== undefined && holdersNow().keep.has(callKey(record.runId, record.callId));
    let callRecords = 0;
    let kept = 0;
    // the records earlier prunes kept, by the same rule: those that hold nothing any more go (0034, Amended)
    for (const runId of this.records.prunedOf(threadId)) {
      // the id is a run's again (recorded after the prune): its records are that run's until it is pruned
      const removed =
        this.runs.read(runId as RunId) === undefined
          ? this.records.removeRun(threadId, runId, index, keeps)
          : undefined;
      callRecords += removed?.removed ?? 0;
      if (removed === undefined || removed.kept === 0) this.records.forgetPruned(threadId, runId);
    }
    for (const runId of runIds) {
      const removed = this.records.removeRun(threadId, runId, index, keeps);
      callRecords += removed.removed;
      kept += removed.kept;
      if (removed.kept > 0) this.records.notePruned(threadId, runId);
      this.runs.remove(runId);
    }
    // host edits: those that ended before `editsBefore` and hold no value the thread has (decision 0034)
    if (editsBefore !== Number.NEGATIVE_INFINITY)
      for (const runId of HOST_EDIT_RUN_IDS) {
        const stays = (record: CallRecord): boolean =>
          holdersNow().holding.has(callKey(record.runId, record.callId)) || !editPruned(record, editsBefore);
        callRecords += this.records.removeRun(threadId, runId, index, stays).removed;
      }
    return { callRecords, kept };
  }

  /**
   * True when a run that continued `runId`, resume after resume, is still `running` or `interrupted`: its
   * resume chain reads this run's record and call records (`pruneHistory` keeps it).
   */
  private continuedByOpenRun(runId: RunId): boolean {
    const seen = new Set<string>([runId]);
    for (let next = this.runs.resumeOf(runId); next !== undefined; next = this.runs.resumeOf(next.runId)) {
      if (next.status === "running" || next.status === "interrupted") return true;
      if (seen.has(next.runId)) return false;
      seen.add(next.runId);
    }
    return false;
  }

  /**
   * The records a re-sent call would be satisfied by for a value the thread still holds (`keep`, by call
   * key; {@link satisfyingKeys}) and the holders of the writes a compaction would keep (`holding`).
   */
  private holdersOf(
    threadId: ThreadId,
    index: ReturnType<typeof indexUpToDate>,
  ): { readonly keep: ReadonlySet<string>; readonly holding: ReadonlySet<string> } {
    const data = this.threads.get(threadId);
    const model = this.storedModel(threadId);
    const holding = new Set<string>();
    if (data === undefined || model === undefined) return { keep: new Set(), holding };
    const holders: CallRecord[] = [...compactLog(data.log).holding];
    for (const holder of holders) holding.add(callKey(holder.runId, holder.callId));
    for (const entry of model.callOutputs.values()) {
      const record = this.records.ofCall(threadId, entry.meta.runId, String(entry.path[0]));
      if (record !== undefined) holders.push(record);
    }
    return { keep: satisfyingKeys(holders, (hash, count) => newestOf(index, hash, count)), holding };
  }

  protected editedThreads(threadId: ThreadId | undefined): ReadonlySet<ThreadId> {
    return this.records.threadsOf(HOST_EDIT_RUN_IDS, threadId);
  }

  protected prunedThreads(threadId: ThreadId | undefined): ReadonlySet<ThreadId> {
    return this.records.prunedThreads(threadId);
  }

  /** From the thread's index of run ids, oldest first (see `MemoryRuns.historyOf`). */
  protected historyCandidates(threadId: ThreadId, keepRuns: number, limit: number): HistoryCandidates {
    const { stoppedAt, candidates } = this.runs.historyOf(
      threadId,
      keepRuns,
      limit,
      (run) =>
        run.status !== "running" &&
        run.status !== "interrupted" &&
        (!this.records.hasWaiting(threadId, run.runId) || this.runs.resumeOf(run.runId) !== undefined) &&
        !this.continuedByOpenRun(run.runId),
    );
    return {
      oldestKept: stoppedAt === undefined ? undefined : historyRunOf(stoppedAt),
      candidates: candidates.map(historyRunOf),
    };
  }

  /** Everything of the thread goes (its lock is held by the caller). */
  protected removeThread(threadId: ThreadId): ThreadDeletion {
    const model = this.storedModel(threadId);
    const runs = this.runs.removeThread(threadId);
    const callRecords = this.records.removeThread(threadId);
    this.threads.delete(threadId);
    this.models.delete(threadId);
    const variables = model?.variables.size ?? 0;
    return { deleted: model !== undefined || runs + callRecords > 0, runs, callRecords, variables };
  }

  stats(threadId?: ThreadId): StoreStats {
    this.assertOpen();
    const held = threadId === undefined ? undefined : this.storedModel(threadId);
    const models = threadId === undefined ? [...this.models.values()] : held === undefined ? [] : [held];
    const totals = { state: { count: 0, bytes: 0 }, calls: { count: 0, bytes: 0 } };
    for (const model of models) {
      for (const { meta } of model.variables.values()) {
        totals[meta.scope].count += 1;
        totals[meta.scope].bytes += meta.bytes;
      }
    }
    const runs = this.runs.count(threadId);
    return {
      threads: models.length,
      variables: totals.state.count,
      variableBytes: totals.state.bytes,
      callOutputs: totals.calls.count,
      callOutputBytes: totals.calls.bytes,
      runs,
    };
  }

  listThreads(): readonly ThreadInfo[] {
    this.assertOpen();
    return byThreadId([...this.models.values()].map((model) => model.info));
  }
}

/** Creates an in-memory store (the library default). Hot-path methods answer synchronously. */
export function createMemoryStore(options: StoreOptions = {}): StateStore {
  checkStoreOptions(options, "createMemoryStore");
  return new MemoryStore(options);
}
