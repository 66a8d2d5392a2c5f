import type { JsonValue, RunId } from "@obelisk/core";
import { ObeliskError } from "@obelisk/core";
import type { RunRecord } from "../store-types.js";
import { assertAppendable, withAppendedCalls } from "./append-run-calls.js";
import { copyJson } from "./copy-json.js";
import type { StoredRunsQuery } from "./history-arguments.js";

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

  /** True when a run of this id is recorded. */
  has(runId: RunId): boolean {
    return this.runs.has(runId);
  }

  /** Records a run (a copy; USAGE when it is not JSON). */
  add(run: RunRecord): void {
    this.keep(copyOf(run));
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
    let running = this.running.get(run.threadId);
    if (run.status === "running") {
      if (running === undefined) {
        running = new Set();
        this.running.set(run.threadId, running);
      }
      running.add(run.runId);
    } else running?.delete(run.runId);
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

  /** Runs as stored, newest first (`waiting`: those `waits` answers true for). */
  query(
    { threadId, limit, statuses, waiting }: StoredRunsQuery,
    waits: (run: RunRecord) => boolean,
  ): readonly RunRecord[] {
    const runs = [...this.runs.values()]
      .reverse()
      .filter(
        (run) =>
          (threadId === undefined || run.threadId === threadId) &&
          (statuses === undefined || statuses.includes(run.status)) &&
          (!waiting || waits(run)),
      );
    const listed = limit === undefined ? runs : runs.slice(0, limit);
    return listed.map((run) => withAppendedCalls(run, this.appended.get(run.runId) ?? []));
  }

  /** How many runs are recorded (of one thread). */
  count(threadId?: string): number {
    if (threadId === undefined) return this.runs.size;
    let count = 0;
    for (const run of this.runs.values()) if (run.threadId === threadId) count++;
    return count;
  }

  /** Forgets a run. */
  remove(runId: RunId): void {
    const run = this.runs.get(runId);
    if (run === undefined) return;
    this.runs.delete(runId);
    this.appended.delete(runId);
    this.running.get(run.threadId)?.delete(runId);
  }

  /** Forgets every run of a thread; answers how many. */
  removeThread(threadId: string): number {
    let removed = 0;
    for (const [runId, run] of this.runs) {
      if (run.threadId !== threadId) continue;
      this.runs.delete(runId);
      this.appended.delete(runId);
      removed++;
    }
    this.running.delete(threadId);
    return removed;
  }
}

function copyOf(run: RunRecord): RunRecord {
  const copy = copyJson(run);
  if (!copy.ok) throw new ObeliskError("USAGE", `run record is not JSON: ${copy.message}`);
  return copy.value as unknown as RunRecord;
}
