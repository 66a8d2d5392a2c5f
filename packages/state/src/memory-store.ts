import type { JsonValue, RunId, ThreadId } from "@obelisk/core";
import { ObeliskError } from "@obelisk/core";
import { CachedStore } from "./internal/cached-store.js";
import { checkStoreOptions } from "./internal/check-store-options.js";
import { compactMemoryThread } from "./internal/compact-memory-thread.js";
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
  newestOf,
} from "./internal/memory-call-records.js";
import { memoryHistoryCandidates } from "./internal/memory-history-candidates.js";
import { appendCommit, appendEntries, newLog, readEntries } from "./internal/memory-log.js";
import { pruneMemoryThread } from "./internal/memory-prune-thread.js";
import { MemoryRuns } from "./internal/memory-runs.js";
import { memoryStats } from "./internal/memory-stats.js";
import { dropOutput, stripOwner } from "./internal/memory-strip.js";
import { dropOldestTombstones, newThreadData, type ThreadData } from "./internal/memory-thread-data.js";
import { evictInto, supersedeTombstones } from "./internal/memory-tombstones.js";
import { COMPACT_MIN_BYTES } from "./internal/plan-log-compaction.js";
import { processHolder } from "./internal/process-holder.js";
import type { HistoryCandidates } from "./internal/prune-history.js";
import { HOST_EDIT_RUN_IDS } from "./internal/prune-runs.js";
import { resetThreadData } from "./internal/reset-thread-data.js";
import { runSummary } from "./internal/run-summary.js";
import {
  type CommitExtras,
  replacedOutputs,
  type ThreadChange,
  type ThreadModel,
  type VariableEntry,
} from "./internal/thread-model.js";
import { byThreadId, lastActivity, type OpenRunReads } from "./internal/thread-order.js";
import type { LockHolder } from "./lock-holder.js";
import type { StoreOptions } from "./store-options.js";
import type {
  CallRecord,
  FinalPlan,
  FinishRunOptions,
  RunRecord,
  RunStatus,
  RunSummary,
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
    if (change.reset === true) resetThreadData(this.records, this.recordResultBytes, data);
    // indexed loops: this runs once per commit
    const { evictions, drops, upserts, outputs, log } = change;
    const evicted =
      evictions.length === 0 ? 0 : evictInto(this.records, this.recordResultBytes, data, evictions);
    if (data.tombstones.size > this.maxTombstones) dropOldestTombstones(data, this.maxTombstones);
    for (let index = 0; index < drops.length; index++) {
      const entry = drops[index] as VariableEntry;
      if (entry.meta.scope === "calls") dropOutput(this.records, this.recordResultBytes, data, entry);
    }
    // a written variable supersedes the tombstones at and above its path (review 7 L2)
    if (data.tombstones.size > 0) supersedeTombstones(data, upserts, change.clearedTombstones);
    for (let index = 0; index < outputs.length; index++) {
      const output = outputs[index] as ThreadChange["outputs"][number];
      data.outputs.set(output.callId, output.value);
    }
    if (outputs.length > 0)
      for (const entry of replacedOutputs(model, change) ?? [])
        stripOwner(this.records, this.recordResultBytes, data, entry);
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
    if (evicted >= COMPACT_MIN_BYTES || data.churnBytes > data.compactAt)
      compactMemoryThread(this.records, this.recordResultBytes, model, data);
    return true;
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

  protected querySummaries(query: StoredRunsQuery): readonly RunSummary[] {
    return this.runs.query(
      query,
      () => true,
      (run, appended) => runSummary(run, appended.length),
    );
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

  /** The removed runs' records go but those a value the thread holds needs (see `pruneMemoryThread`). */
  protected pruneThread(
    threadId: ThreadId,
    runIds: readonly RunId[],
    editsBefore: number,
  ): { callRecords: number; kept: number } {
    const data = this.threads.get(threadId);
    const modelOf = (): ThreadModel | undefined => this.storedModel(threadId);
    return pruneMemoryThread(this.records, this.runs, data, modelOf, threadId, runIds, editsBefore);
  }

  protected editedThreads(threadId: ThreadId | undefined): ReadonlySet<ThreadId> {
    return this.records.threadsOf(HOST_EDIT_RUN_IDS, threadId);
  }

  protected prunedThreads(threadId: ThreadId | undefined): ReadonlySet<ThreadId> {
    return this.records.prunedThreads(threadId);
  }

  /** From the thread's index of run ids, oldest first (see `MemoryRuns.historyOf`). */
  protected historyCandidates(threadId: ThreadId, keepRuns: number, limit: number): HistoryCandidates {
    return memoryHistoryCandidates(this.runs, this.records, threadId, keepRuns, limit);
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
    return memoryStats(models, this.runs.count(threadId));
  }

  listThreads(): readonly ThreadInfo[] {
    this.assertOpen();
    return byThreadId([...this.models.values()].map((model) => model.info));
  }

  listIdleThreads(idleSince: string): readonly ThreadInfo[] {
    this.assertOpen();
    const idle: ThreadInfo[] = [];
    const reads: OpenRunReads = {
      abandoned: (threadId) => this.abandonment(threadId as ThreadId) !== undefined,
      lastRecord: (runId) => this.records.ofRun(runId).at(-1),
    };
    for (const { info } of this.models.values())
      if (lastActivity(info.createdAt, this.runs.newestOf(info.threadId), reads) < idleSince) idle.push(info);
    return byThreadId(idle);
  }
}

/** Creates an in-memory store (the library default). Hot-path methods answer synchronously. */
export function createMemoryStore(options: StoreOptions = {}): StateStore {
  checkStoreOptions(options, "createMemoryStore");
  return new MemoryStore(options);
}
