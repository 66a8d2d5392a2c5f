import type { JsonValue, RunId } from "@obelisk/core";
import { ObeliskError } from "@obelisk/core";
import type { RunRecord, RunStatus } from "../store-types.js";
import { assertAppendable, withAppendedCalls } from "./append-run-calls.js";
import { copyJson } from "./copy-json.js";
import type { StoredRunsQuery } from "./history-arguments.js";
import { RecentIds } from "./recent-ids.js";

/**
 * The memory store's run records: copied in as JSON, with the calls appended to a running one (folded in
 * when it ends) and the `running` ones of each thread (what a lock or a read marks `interrupted`).
 */
export class MemoryRuns {
  private readonly runs = new Map<string, RunRecord>();
  /** Calls appended to running runs (`appendRunCalls`), folded into the record when the run finishes. */
  private readonly appended = new Map<string, JsonValue[]>();
  /** The ids of the `running` runs, by thread. */
  private readonly running = new Map<string, Set<string>>();
  /**
   * The ids of the `interrupted` runs, by thread: with `running`, a thread's open runs are found without
   * reading every run (the engine asks for them after each run, to end those a re-sent plan superseded).
   */
  private readonly interrupted = new Map<string, Set<string>>();
  /**
   * The ids of each thread's runs in the order they were recorded (`pruneHistory` reads them from the
   * oldest, a listing of the thread's runs from the newest, stopping at its limit: decision 0104).
   */
  private readonly ofThread = new Map<string, RecentIds>();
  /** Every run's id in the order they were recorded (a listing of all runs walks it from the newest). */
  private readonly recorded = new RecentIds();
  /** Each run's place in the order runs were first recorded (newest first is the highest). */
  private readonly order = new Map<string, number>();
  private nextOrder = 0;
  /** The ids of the runs recorded with each `resumeOf` (a record's `resumeOf` never changes). */
  private readonly resumes = new Map<string, Set<string>>();

  /** True when a run of this id is recorded. */
  has(runId: RunId): boolean {
    return this.runs.has(runId);
  }

  /** Records a run (a copy; USAGE when it is not JSON). */
  add(run: RunRecord): void {
    this.keep(copyOf(run));
    let ids = this.ofThread.get(run.threadId);
    if (ids === undefined) {
      ids = new RecentIds();
      this.ofThread.set(run.threadId, ids);
    }
    const place = this.order.get(run.runId) as number;
    ids.add(run.runId, place);
    this.recorded.add(run.runId, place);
  }

  /** Ends `run` (read with its appended calls): `ending` over it, the appended calls folded in. */
  end(run: RunRecord, ending: Partial<RunRecord>): void {
    const copy = copyOf({ ...run, ...ending });
    this.appended.delete(run.runId);
    this.keep(copy);
  }

  /** Keeps a run record (and its place among the thread's `running` runs). */
  private keep(run: RunRecord): void {
    this.runs.set(run.runId, run);
    if (!this.order.has(run.runId)) this.order.set(run.runId, this.nextOrder++);
    if (run.resumeOf !== undefined) addTo(this.resumes, run.resumeOf, run.runId);
    track(this.running, run, run.status === "running");
    track(this.interrupted, run, run.status === "interrupted");
  }

  /** The ids of a thread's `running` runs. */
  runningOf(threadId: string): readonly RunId[] {
    return [...(this.running.get(threadId) ?? [])] as RunId[];
  }

  /** Appends calls to a running run's plan (RUN_NOT_FOUND, USAGE as `appendRunCalls` answers). */
  append(runId: RunId, calls: readonly JsonValue[]): void {
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

  /** A run with the calls appended to it. */
  read(runId: RunId): RunRecord | undefined {
    const run = this.runs.get(runId);
    return run === undefined ? undefined : withAppendedCalls(run, this.appended.get(runId) ?? []);
  }

  /** A run's thread and place in the order runs were recorded, or undefined. */
  place(runId: RunId): { readonly threadId: string; readonly place: number } | undefined {
    const run = this.runs.get(runId);
    const place = this.order.get(runId);
    return run === undefined || place === undefined ? undefined : { threadId: run.threadId, place };
  }

  /** The newest run recorded with `resumeOf: runId` (with its appended calls), or undefined. */
  resumeOf(runId: RunId): RunRecord | undefined {
    let newest: string | undefined;
    for (const id of this.resumes.get(runId) ?? [])
      if (newest === undefined || (this.order.get(id) ?? 0) > (this.order.get(newest) ?? 0)) newest = id;
    return newest === undefined ? undefined : this.read(newest as RunId);
  }

  /**
   * Runs as stored, newest first (`waiting`: those `waits` answers true for): walked from the newest below
   * `before` (of the thread, from its own index), stopping at `limit` — only the runs passed over are read.
   */
  query(query: StoredRunsQuery, waits: (run: RunRecord) => boolean): readonly RunRecord[];
  /** The runs of {@link query}, each as `shape` makes it of the record and the calls appended to it. */
  query<T>(
    query: StoredRunsQuery,
    waits: (run: RunRecord) => boolean,
    shape: (run: RunRecord, appended: readonly JsonValue[]) => T,
  ): readonly T[];
  query<T>(
    { threadId, limit, statuses, waiting, before = Number.POSITIVE_INFINITY }: StoredRunsQuery,
    waits: (run: RunRecord) => boolean,
    shape: (run: RunRecord, appended: readonly JsonValue[]) => T = withAppendedCalls as never,
  ): readonly T[] {
    if (threadId !== undefined && statuses?.every(isOpen) === true && !waiting)
      return this.openRuns(threadId, statuses, limit, before).map((run) => this.shaped(run, shape));
    const ids = threadId === undefined ? this.recorded : this.ofThread.get(threadId);
    const listed: T[] = [];
    if (ids === undefined || limit === 0) return listed;
    for (const id of ids.newest(before)) {
      const run = this.runs.get(id) as RunRecord;
      if ((statuses !== undefined && !statuses.includes(run.status)) || (waiting && !waits(run))) continue;
      listed.push(this.shaped(run, shape));
      if (listed.length === limit) break;
    }
    return listed;
  }

  /** `run` as `shape` makes it of the record and the calls appended to it. */
  private shaped<T>(run: RunRecord, shape: (run: RunRecord, appended: readonly JsonValue[]) => T): T {
    return shape(run, this.appended.get(run.runId) ?? []);
  }

  /**
   * A thread's runs of open statuses (`running`, `interrupted`) below `before`, newest first, from the
   * indexes (as stored: the caller adds the appended calls).
   */
  private openRuns(
    threadId: string,
    statuses: readonly RunStatus[],
    limit: number | undefined,
    before: number,
  ): RunRecord[] {
    const ids = [...(this.running.get(threadId) ?? []), ...(this.interrupted.get(threadId) ?? [])];
    const runs: RunRecord[] = [];
    for (const id of ids) {
      const run = this.runs.get(id);
      if (run !== undefined && statuses.includes(run.status) && (this.order.get(id) ?? 0) < before)
        runs.push(run);
    }
    runs.sort((a, b) => (this.order.get(b.runId) ?? 0) - (this.order.get(a.runId) ?? 0));
    return limit === undefined ? runs : runs.slice(0, limit);
  }

  /**
   * A thread's runs for `pruneHistory`, read from the oldest: at most `limit` of those before its newest
   * `keepRuns` that `mayGo` answers true for, and the run the reading stopped at — the oldest of the newest
   * `keepRuns`, or, once `limit` runs are found, the next one (older: the host edits pruned by its start
   * time are then fewer, never more). Reads as many runs as it passes over, never the whole history.
   */
  historyOf(
    threadId: string,
    keepRuns: number,
    limit: number,
    mayGo: (run: RunRecord) => boolean,
  ): { readonly stoppedAt: RunRecord | undefined; readonly candidates: readonly RunRecord[] } {
    const ids = this.ofThread.get(threadId);
    if (ids === undefined) return { stoppedAt: undefined, candidates: [] };
    const before = ids.size - keepRuns;
    const candidates: RunRecord[] = [];
    let position = 0;
    for (const id of ids.oldest()) {
      const run = this.runs.get(id) as RunRecord;
      if (position >= before || candidates.length === limit) return { stoppedAt: run, candidates };
      if (mayGo(run)) candidates.push(run);
      position++;
    }
    return { stoppedAt: undefined, candidates };
  }

  /** A thread's newest run as stored (its last recorded), from the thread's index; undefined without one. */
  newestOf(threadId: string): RunRecord | undefined {
    for (const id of this.ofThread.get(threadId)?.newest() ?? []) return this.runs.get(id);
    return undefined;
  }

  /** How many runs are recorded (of one thread). */
  count(threadId?: string): number {
    if (threadId === undefined) return this.runs.size;
    return this.ofThread.get(threadId)?.size ?? 0;
  }

  /** Forgets a run. */
  remove(runId: RunId): void {
    const run = this.runs.get(runId);
    if (run === undefined) return;
    this.runs.delete(runId);
    this.appended.delete(runId);
    this.order.delete(runId);
    this.recorded.delete(runId);
    this.ofThread.get(run.threadId)?.delete(runId);
    this.running.get(run.threadId)?.delete(runId);
    this.interrupted.get(run.threadId)?.delete(runId);
    this.forgetResume(run);
  }

  /** Takes `run` out of the resumes of its `resumeOf`. */
  private forgetResume(run: RunRecord): void {
    if (run.resumeOf === undefined) return;
    const ids = this.resumes.get(run.resumeOf);
    ids?.delete(run.runId);
    if (ids?.size === 0) this.resumes.delete(run.resumeOf);
  }

  /** Forgets every run of a thread; answers how many. */
  removeThread(threadId: string): number {
    let removed = 0;
    for (const runId of this.ofThread.get(threadId)?.oldest() ?? []) {
      const run = this.runs.get(runId) as RunRecord;
      this.runs.delete(runId);
      this.appended.delete(runId);
      this.order.delete(runId);
      this.recorded.delete(runId);
      this.forgetResume(run);
      removed++;
    }
    this.ofThread.delete(threadId);
    this.running.delete(threadId);
    this.interrupted.delete(threadId);
    return removed;
  }
}

function copyOf(run: RunRecord): RunRecord {
  const copy = copyJson(run);
  if (!copy.ok) throw new ObeliskError("USAGE", `run record is not JSON: ${copy.message}`);
  return copy.value as unknown as RunRecord;
}

/** True for the statuses a thread's run index holds. */
const isOpen = (status: RunStatus): boolean => status === "running" || status === "interrupted";

/** Adds `run` to its thread's set in `index` when `member`, takes it out otherwise. */
function track(index: Map<string, Set<string>>, run: RunRecord, member: boolean): void {
  if (member) addTo(index, run.threadId, run.runId);
  else index.get(run.threadId)?.delete(run.runId);
}

/** Adds `id` to the set of `key` in `index`. */
function addTo(index: Map<string, Set<string>>, key: string, id: string): void {
  let ids = index.get(key);
  if (ids === undefined) {
    ids = new Set();
    index.set(key, ids);
  }
  ids.add(id);
}
