import {
  asRunId,
  asThreadId,
  type JsonObject,
  type JsonValue,
  planCallsKey,
  type RunId,
} from "@obelisk/core";
import type { CallRecord, RunRecord, StateStore } from "@obelisk/state";

/** Most records of one key asked for to find the own record a `satisfied` record was satisfied by. */
const FOLLOWED_RECORDS = 16;

/**
 * True when `calls`, the records of `run`, hold one for every call of its plan (decision 0079): the run
 * decided each call, so its records (and the own records its `satisfied` ones lead to) stand for the runs it
 * resumed. A run that stopped before some of its calls were recorded (a crash, a store failure) does not.
 */
export function recordsEveryCall(run: RunRecord, calls: readonly CallRecord[]): boolean {
  const count = planCallCount(run.plan);
  if (count === undefined) return false;
  const ids = new Set<string>();
  for (const call of calls) ids.add(call.callId);
  return ids.size === count;
}

/** The number of calls of a stored plan document (an array, one call, or `plan`/`calls`); undefined if none. */
function planCallCount(plan: JsonValue): number | undefined {
  if (Array.isArray(plan)) return plan.length;
  if (typeof plan !== "object" || plan === null) return undefined;
  const document = plan as JsonObject;
  if (Object.hasOwn(document, "_tool") && document.type !== "plan") return 1;
  const key = planCallsKey(document);
  const calls = key === undefined ? undefined : document[key];
  return Array.isArray(calls) ? calls.length : undefined;
}

/**
 * The first run of `run`'s resume chain: its `resumeRoot`, or itself when it resumes nothing; undefined for
 * a resume recorded without `resumeRoot` (before decision 0079).
 */
export function chainRoot(run: RunRecord): RunId | undefined {
  return run.resumeRoot ?? (run.resumeOf === undefined ? run.runId : undefined);
}

/**
 * Where a `satisfied` record of the chain leads: the own record that satisfied it, `"outside"` when a record
 * of a run outside the chain did (the chain holds no own record to inherit), or `"unknown"` (the walk goes on).
 */
type Lead = CallRecord | "outside" | "unknown";

/**
 * Finds, for the chain's calls recorded `satisfied` but never `succeeded` in the runs read, the own record
 * that satisfied them in the runs before (decision 0079). A record that names the run that satisfied it
 * (`satisfiedBy`) leads to that run's record of the call when the run is of the same chain (the same first
 * run: a run is resumed once, decision 0070, so the runs of one root are one line), and to none when it is
 * another run. One without it is followed by key: the newest `succeeded` record of the same call id and key
 * on the thread whose run is of the same chain. Remembers each answer: the walk asks again at every run
 * that could end it, with the same latest records.
 */
export class OwnRecordFollower {
  private readonly found = new Map<string, Lead>();
  private readonly runs = new Map<string, RunRecord | undefined>();
  private readonly calls = new Map<string, readonly CallRecord[]>();

  constructor(
    private readonly store: StateStore,
    private readonly threadId: string,
    private readonly root: RunId,
  ) {}

  /**
   * The own record of each call of `settled` that `records` lacks, where there is one; undefined when one
   * cannot be told (its run is not on record; without `satisfiedBy`: its record dropped its key, the store
   * cannot look records up by key, or it was satisfied by another call's record or by its own through a
   * parameter that reads its own output): the walk then goes on.
   */
  async follow(
    settled: ReadonlyMap<string, CallRecord>,
    records: ReadonlyMap<string, CallRecord>,
  ): Promise<Map<string, CallRecord> | undefined> {
    const inherited = new Map<string, CallRecord>();
    for (const [callId, record] of settled) {
      if (records.has(callId)) continue;
      let lead = this.found.get(callId);
      if (lead === undefined) {
        lead = await this.lead(callId, record);
        this.found.set(callId, lead);
      }
      if (lead === "unknown") return undefined;
      if (lead !== "outside") inherited.set(callId, lead);
    }
    return inherited;
  }

  private async lead(callId: string, satisfied: CallRecord): Promise<Lead> {
    const by: unknown = satisfied.satisfiedBy;
    if (typeof by === "string" && by !== "") return this.ledBy(callId, by);
    const hash = satisfied.callHash;
    if (hash === undefined || this.store.findCompletedCalls === undefined) return "unknown";
    const completed = await this.store.findCompletedCalls(asThreadId(this.threadId), hash, FOLLOWED_RECORDS);
    for (const record of completed)
      if (record.callId === callId && (await this.inChain(record.runId))) return record;
    return "unknown";
  }

  /**
   * The record of `callId` that run `runId` completed, when that run is of the chain; `"outside"` when it is
   * a run of the thread outside it. A resume recorded without `resumeRoot` may be of the chain: unknown.
   */
  private async ledBy(callId: string, runId: string): Promise<Lead> {
    const run = await this.runOf(runId);
    if (run === undefined) return "unknown";
    const root = chainRoot(run);
    if (root === undefined) return "unknown";
    if (root !== this.root) return "outside";
    let calls = this.calls.get(runId);
    if (calls === undefined) {
      calls = await this.store.listCallRecords(run.runId);
      this.calls.set(runId, calls);
    }
    const own = calls.findLast((call) => call.callId === callId && call.status === "succeeded");
    return own ?? "unknown";
  }

  /** True when the store holds the run, on the thread, with the chain's first run. */
  private async inChain(runId: string): Promise<boolean> {
    const run = await this.runOf(runId);
    return run !== undefined && chainRoot(run) === this.root;
  }

  /** The run `runId` of the thread, read once; undefined when the store has none there. */
  private async runOf(runId: string): Promise<RunRecord | undefined> {
    if (this.runs.has(runId)) return this.runs.get(runId);
    const read = await this.store.getRun(asRunId(runId));
    const run = read?.threadId === this.threadId ? read : undefined;
    this.runs.set(runId, run);
    return run;
  }
}

/**
 * True when the thread holds a run still `running` or `interrupted` of the plan of `run` (or a streamed one,
 * recorded without a hash) that `runIds` lacks: it may be a run of the chain before `run` that was never
 * ended (its resume stopped before it ended the runs it continued), which the resume must end with its own
 * reason, so the walk goes on to it.
 */
export async function openRunBefore(
  store: StateStore,
  run: RunRecord,
  runIds: ReadonlySet<string>,
): Promise<boolean> {
  for (const status of ["interrupted", "running"] as const) {
    const open = await store.listRuns({ threadId: run.threadId, status });
    const elsewhere = (other: RunRecord): boolean =>
      !runIds.has(other.runId) && (other.planHash === run.planHash || other.planHash === "sha256:");
    if (open.some(elsewhere)) return true;
  }
  return false;
}
