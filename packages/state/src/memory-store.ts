import type { JsonValue, OutputMethod, Path, RunId, ThreadId } from "@obelisk/core";
import { ObeliskError } from "@obelisk/core";
import { assertAppendable, withAppendedCalls } from "./internal/append-run-calls.js";
import { CachedStore } from "./internal/cached-store.js";
import { copyJson } from "./internal/copy-json.js";
import { recordedRunIdError, type StoredRunsQuery } from "./internal/history-arguments.js";
import { unheldReason } from "./internal/interrupted-runs.js";
import { PathTrie } from "./internal/path-trie.js";
import { statePathOf } from "./internal/superseded-below.js";
import {
  type CommitExtras,
  commitLogEntry,
  type Eviction,
  type ThreadChange,
  type ThreadModel,
  type VariableEntry,
} from "./internal/thread-model.js";
import type { StoreOptions } from "./store-options.js";
import type {
  CallRecord,
  FinalPlan,
  RunRecord,
  RunStatus,
  StateStore,
  StateWrite,
  StoreStats,
  Tombstone,
  WriteLogEntry,
} from "./store-types.js";

/**
 * A thread's write log, flat, seven slots per entry: seq, date, source, then the write's path, method,
 * value and reference. The source is the commit's call record (the entry and its write are built on read,
 * {@link commitLogEntry}) or, for lifecycle entries, the entry itself. No objects per logged write: the
 * log grows with every write and lives as long as the thread.
 */
type FlatLog = (number | string | CallRecord | WriteLogEntry | Path | JsonValue)[];
const LOG_SLOTS = 7;

interface ThreadData {
  callCounter: number;
  log: FlatLog;
  readonly outputs: Map<string, JsonValue>;
  readonly tombstones: Map<string, Tombstone>;
  /** The state tombstones among `tombstones`, by path (those at, above and below a write are found by it). */
  readonly statePaths: PathTrie;
  /** Latest succeeded record per call hash, as of the last lookup (see `unindexed`). */
  readonly completed: Map<string, CallRecord>;
  /** The earlier succeeded records of a call hash that has several, oldest first (rare). */
  readonly earlier: Map<string, CallRecord[]>;
  /**
   * Succeeded records with a call hash committed since the last `findCompletedCall`, oldest first: the
   * index is brought up to date on lookup, not per commit (a Map insert costs more than the push).
   */
  unindexed: CallRecord[];
}

/** The in-memory backend: the cached models are the data; history lives in maps. */
class MemoryStore extends CachedStore {
  readonly backend = "memory";
  private readonly threads = new Map<string, ThreadData>();
  private readonly runs = new Map<string, RunRecord>();
  private readonly records = new Map<string, CallRecord[]>();
  /** Calls appended to running runs (`appendRunCalls`), folded into the record when the run finishes. */
  private readonly appended = new Map<string, JsonValue[]>();
  /** The ids of the `running` runs, by thread (what a lock or a read marks `interrupted`). */
  private readonly running = new Map<string, Set<string>>();

  private data(threadId: string): ThreadData {
    let data = this.threads.get(threadId);
    if (data === undefined) {
      data = {
        callCounter: 0,
        log: [],
        outputs: new Map(),
        tombstones: new Map(),
        statePaths: new PathTrie(),
        completed: new Map(),
        earlier: new Map(),
        unindexed: [],
      };
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
      data.log = [];
      data.outputs.clear();
      data.completed.clear();
      data.earlier.clear();
      data.unindexed = [];
    }
    // indexed loops: this runs once per commit
    const { evictions, drops, upserts, outputs, log } = change;
    for (let index = 0; index < evictions.length; index++) {
      const { entry, tombstone } = evictions[index] as Eviction;
      data.tombstones.set(tombstone.reference, tombstone);
      if (entry.meta.scope === "state") data.statePaths.set(entry.path, tombstone.reference);
      else data.outputs.delete(String(entry.path[0]));
    }
    for (let index = 0; index < drops.length; index++) {
      const entry = drops[index] as VariableEntry;
      if (entry.meta.scope === "calls") data.outputs.delete(String(entry.path[0]));
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
    for (let index = 0; index < log.length; index++) {
      const entry = log[index] as WriteLogEntry;
      data.log.push(entry.seq, entry.date, entry, null, null, null, null);
    }
    const record = change.record;
    const commitLog = change.commitLog;
    if (commitLog !== undefined && record !== undefined) {
      const { firstSeq, date, writes } = commitLog;
      for (let index = 0; index < writes.length; index++) {
        const { path, method, value, reference } = writes[index] as StateWrite;
        data.log.push(firstSeq + index, date, record, path, method, value, reference);
      }
    }
    if (record !== undefined) {
      const list = this.records.get(record.runId);
      if (list === undefined) this.records.set(record.runId, [record]);
      else list.push(record);
      if (record.status === "succeeded" && record.callHash !== undefined) data.unindexed.push(record);
    }
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
    const copy = copyJson(run);
    if (!copy.ok) throw new ObeliskError("USAGE", `run record is not JSON: ${copy.message}`);
    this.model(run.threadId);
    this.store(copy.value as unknown as RunRecord);
  }

  finishRun(runId: RunId, status: RunStatus, endedAt: string, final?: FinalPlan): void {
    this.assertOpen();
    const run = this.readRun(runId);
    if (run === undefined) throw new ObeliskError("RUN_NOT_FOUND", `no run "${runId}"`);
    this.end(run, { ...final, status, endedAt });
  }

  /** Ends `run` (read with its appended calls): `ending` over it, the appended calls folded in. */
  private end(run: RunRecord, ending: Partial<RunRecord>): void {
    const copy = copyJson({ ...run, ...ending });
    if (!copy.ok) throw new ObeliskError("USAGE", `run record is not JSON: ${copy.message}`);
    this.appended.delete(run.runId);
    this.store(copy.value as unknown as RunRecord);
  }

  /** Keeps a run record (and its place among the thread's `running` runs). */
  private store(run: RunRecord): void {
    this.runs.set(run.runId, run);
    let running = this.running.get(run.threadId);
    if (run.status === "running") {
      if (running === undefined) {
        running = new Set();
        this.running.set(run.threadId, running);
      }
      running.add(run.runId);
    } else running?.delete(run.runId);
  }

  /** A run of this store holds the thread's lock while it is in progress: without it, none is. */
  protected abandonment(threadId: ThreadId): string | undefined {
    return this.locks.isHeld(threadId) ? undefined : unheldReason(threadId, undefined);
  }

  protected interruptRuns(threadId: ThreadId, reason: string): void {
    const ids = this.running.get(threadId);
    if (ids === undefined || ids.size === 0) return;
    const endedAt = this.isoNow();
    for (const runId of [...ids]) {
      const run = this.readRun(runId as RunId);
      if (run !== undefined) this.end(run, { status: "interrupted", endedAt, reason });
    }
  }

  appendRunCalls(runId: RunId, calls: readonly JsonValue[]): void {
    this.assertOpen();
    const run = this.runs.get(runId);
    if (run === undefined) throw new ObeliskError("RUN_NOT_FOUND", `no run "${runId}"`);
    assertAppendable(run);
    const copy = copyJson(calls);
    if (!copy.ok) throw new ObeliskError("USAGE", `appended calls are not JSON: ${copy.message}`);
    let appended = this.appended.get(runId);
    if (appended === undefined) {
      appended = [];
      this.appended.set(runId, appended);
    }
    for (const call of copy.value as readonly JsonValue[]) appended.push(call);
  }

  protected readRun(runId: RunId): RunRecord | undefined {
    const run = this.runs.get(runId);
    return run === undefined ? undefined : withAppendedCalls(run, this.appended.get(runId) ?? []);
  }

  protected queryRuns({ threadId, limit, statuses }: StoredRunsQuery): readonly RunRecord[] {
    const runs = [...this.runs.values()]
      .reverse()
      .filter(
        (run) =>
          (threadId === undefined || run.threadId === threadId) &&
          (statuses === undefined || statuses.includes(run.status)),
      );
    const listed = limit === undefined ? runs : runs.slice(0, limit);
    return listed.map((run) => withAppendedCalls(run, this.appended.get(run.runId) ?? []));
  }

  protected readCallRecords(runId: RunId): readonly CallRecord[] {
    return [...(this.records.get(runId) ?? [])];
  }

  findCompletedCall(threadId: ThreadId, callHash: string): CallRecord | undefined {
    return this.indexed(threadId)?.completed.get(callHash);
  }

  findCompletedCalls(threadId: ThreadId, callHash: string, limit: number): readonly CallRecord[] {
    const data = this.indexed(threadId);
    const latest = data?.completed.get(callHash);
    if (data === undefined || latest === undefined) return [];
    const earlier = data.earlier.get(callHash) ?? [];
    const records = [latest];
    for (let at = earlier.length - 1; at >= 0 && records.length < limit; at--)
      records.push(earlier[at] as CallRecord);
    return records;
  }

  /** The thread's satisfied index, brought up to date with the records committed since the last lookup. */
  private indexed(threadId: ThreadId): ThreadData | undefined {
    this.assertOpen();
    const data = this.threads.get(threadId);
    if (data === undefined || data.unindexed.length === 0) return data;
    for (const record of data.unindexed) {
      const hash = record.callHash as string;
      const previous = data.completed.get(hash);
      if (previous !== undefined) {
        const list = data.earlier.get(hash);
        if (list === undefined) data.earlier.set(hash, [previous]);
        else list.push(previous);
      }
      data.completed.set(hash, record);
    }
    data.unindexed = [];
    return data;
  }

  readWriteLog(threadId: ThreadId): readonly WriteLogEntry[] {
    this.assertOpen();
    const log = this.threads.get(threadId)?.log ?? [];
    const entries: WriteLogEntry[] = [];
    for (let at = 0; at < log.length; at += LOG_SLOTS) {
      const source = log[at + 2] as CallRecord | WriteLogEntry;
      if ("seq" in source) {
        entries.push(source);
        continue;
      }
      const write: StateWrite = {
        path: log[at + 3] as Path,
        method: log[at + 4] as OutputMethod,
        value: log[at + 5] as JsonValue,
        reference: log[at + 6] as string,
      };
      entries.push(commitLogEntry(log[at] as number, source, log[at + 1] as string, write));
    }
    return entries;
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
    const runs = [...this.runs.values()].filter(
      (run) => threadId === undefined || run.threadId === threadId,
    ).length;
    return {
      threads: models.length,
      variables: totals.state.count,
      variableBytes: totals.state.bytes,
      callOutputs: totals.calls.count,
      callOutputBytes: totals.calls.bytes,
      runs,
    };
  }
}

/** Creates an in-memory store (the library default). Hot-path methods answer synchronously. */
export function createMemoryStore(options: StoreOptions = {}): StateStore {
  return new MemoryStore(options);
}
