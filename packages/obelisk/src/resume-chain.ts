import type { PlanHash, RunId, ThreadId } from "@obelisk/core";
import type { CallRecord, RunRecord, StateStore } from "@obelisk/state";
import { chainRoot, OwnRecordFollower, openRunBefore, recordsEveryCall } from "./chain-end.js";
import type { ResumedNumbering } from "./engine-runtime.js";
import { storedPlanHash } from "./record-run.js";

/** Most runs a resume chain is followed through (a resume of a resume of …), newest first. */
const MAX_CHAIN = 1000;

/**
 * What a resume continues: the run it was asked for and, through `resumeOf`, the runs that one resumed back
 * to the newest that recorded every call of its plan (decision 0079), whose records stand for those before.
 */
export interface ResumeChain {
  /** The run being resumed (the new run record's `resumeOf`). */
  readonly resumeOf: RunId;
  /** The runs of the chain read, newest first (the one being resumed first). */
  readonly runs: readonly RunRecord[];
  /**
   * Their ids, and those of the runs before whose own records `records` holds: their records satisfy only
   * the call with the same id.
   */
  readonly runIds: ReadonlySet<string>;
  /**
   * The latest completed (`succeeded`) record of each call id in the chain: a call is satisfied by its own
   * record even when the store's latest record of the same key is an identical sibling's. For a call the
   * runs read recorded only `satisfied`, the own record that satisfied it in the runs before.
   */
  readonly records: ReadonlyMap<string, CallRecord>;
  /**
   * The latest `succeeded` or `satisfied` record of each call id in the chain: the calls that had completed
   * before the interruption, whose targets a later write changed are left as they are (decision 0043).
   */
  readonly settled: ReadonlyMap<string, CallRecord>;
  /** The original numbering of automatic ids (absent for records without `firstAutoIdNumber`). */
  readonly numbering: ResumedNumbering | undefined;
  /**
   * The first run of the chain (the new run record's `resumeRoot`), when the run resumed knows it or the
   * walk reached it.
   */
  readonly root: RunId | undefined;
}

/** The calls the runs read so far recorded, folded newest run first. */
interface ChainRecords {
  readonly ownCallIds: Set<string>;
  readonly records: Map<string, CallRecord>;
  readonly settled: Map<string, CallRecord>;
}

/**
 * Follows `record` back through `resumeOf` on its thread (stopping at a missing run, a loop or
 * {@link MAX_CHAIN}): a resume of a crashed resume keeps the original's automatic ids, because the calls
 * recorded by any run of the chain are its own. The walk ends at a run that recorded every call of its plan
 * once the own records its `satisfied` records name are found (decision 0079): a chain of n resumes costs a
 * resume the calls of its plan and the runs since that run, not n runs' records. It goes on to the runs
 * before when one is not found, or when a run of the plan before may still be open (its resume stopped
 * before ending it: the resume ends it, as it ends the crashed runs it reads).
 */
export async function resumeChain(store: StateStore, record: RunRecord): Promise<ResumeChain> {
  const runs: RunRecord[] = [];
  const runIds = new Set<string>();
  const read: ChainRecords = { ownCallIds: new Set(), records: new Map(), settled: new Map() };
  const root = chainRoot(record);
  const follower = root === undefined ? undefined : new OwnRecordFollower(store, record.threadId, root);
  let mayEnd = true;
  let current = record;
  let firstRun: RunId | undefined;
  for (;;) {
    runs.push(current);
    runIds.add(current.runId);
    const calls = await store.listCallRecords(current.runId);
    foldCalls(read, calls);
    if (current.resumeOf === undefined) firstRun = current.runId;
    if (current.resumeOf === undefined || runs.length >= MAX_CHAIN || runIds.has(current.resumeOf)) break;
    const previous = await store.getRun(current.resumeOf);
    if (previous === undefined || previous.threadId !== record.threadId) break;
    if (follower !== undefined && mayEnd && recordsEveryCall(current, calls)) {
      const inherited = await follower.follow(read.settled, read.records);
      if (inherited !== undefined) {
        if (!(await openRunBefore(store, current, runIds))) {
          for (const [callId, own] of inherited) {
            read.records.set(callId, own);
            runIds.add(own.runId);
          }
          break;
        }
        mayEnd = false;
      }
    }
    current = previous;
  }
  const first = record.firstAutoIdNumber;
  const numbering =
    first !== undefined && Number.isSafeInteger(first) && first >= 1
      ? { firstAutoIdNumber: first, ownCallIds: read.ownCallIds }
      : undefined;
  const { records, settled } = read;
  // a chain recorded before decision 0079 has no root on record: a whole walk that reached its first run
  // gives it, so the resumes from now on record it and can end their walks (own records found only in its
  // older resumes, which lack it, still take the whole walk)
  return { resumeOf: record.runId, runs, runIds, records, settled, numbering, root: root ?? firstRun };
}

/** Adds a run's records, older than those folded already: the first succeeded (or satisfied) met for an id is its latest. */
function foldCalls({ ownCallIds, records, settled }: ChainRecords, calls: readonly CallRecord[]): void {
  for (let at = calls.length - 1; at >= 0; at--) {
    const call = calls[at] as CallRecord;
    ownCallIds.add(call.callId);
    if (call.status === "succeeded" && !records.has(call.callId)) records.set(call.callId, call);
    if ((call.status === "succeeded" || call.status === "satisfied") && !settled.has(call.callId))
      settled.set(call.callId, call);
  }
}

/** A run that a resume or a superseding run ended: what its `run-superseded` event tells. */
export interface EndedRun {
  readonly runId: RunId;
  /** Its reason now (absent when it had none and was given none). */
  readonly reason: string | undefined;
  /** The end time recorded (ISO). */
  readonly endedAt: string;
}

/**
 * Marks the runs of the chain still `running` or `interrupted` (their process died) `cancelled`, once the
 * resume has run: they are continued, not to be resumed again (an `interrupted` one keeps its `reason`). A
 * streamed one was recorded without a hash (`sha256:`: its plan grew call by call and the hash is computed
 * at close, which never came): it gets the hash of its stored plan, the calls it had accepted. `reasonOf`
 * gives each its new reason from the one it had (`runs.cancel`); without it the reason stays. Answers each
 * run it ended with its reason and end time (for its `run-superseded` event).
 */
export async function endCrashedRuns(
  store: StateStore,
  chain: Pick<ResumeChain, "runs">,
  endedAt: () => string,
  reasonOf?: (previous: string | undefined) => string,
): Promise<EndedRun[]> {
  const ended: EndedRun[] = [];
  for (const run of chain.runs) {
    const after = await store.getRun(run.runId);
    if (after?.status !== "running" && after?.status !== "interrupted") continue;
    const hash = after.planHash === "sha256:" ? storedPlanHash(after.plan) : undefined;
    const final = hash === undefined ? undefined : { plan: after.plan, planHash: hash };
    const reason = reasonOf === undefined ? after.reason : reasonOf(after.reason);
    const options = reasonOf === undefined || reason === undefined ? undefined : { reason };
    const at = endedAt();
    await store.finishRun(run.runId, "cancelled", at, final, options);
    ended.push({ runId: run.runId, reason, endedAt: at });
  }
  return ended;
}

/** The run that ended on a thread, whose earlier `interrupted` runs of the same plan it supersedes. */
interface SupersedingRun {
  readonly runId: RunId;
  readonly threadId: ThreadId;
  readonly planHash: PlanHash;
  /** The runs a resume continues: its chain, which `endCrashedRuns` ends with their own reasons. */
  readonly resumes?: ReadonlySet<string> | undefined;
}

/**
 * Once a run ended `succeeded` or `failed`: the thread's `interrupted` runs of the same plan hash (the plan
 * re-sent with `run` after a crash instead of `resume`) end `cancelled`, "superseded by run …" (followed by
 * why they were interrupted), as the runs a resume continues do, so `runs list --status interrupted` lists
 * only work still to do (s32 user review, L9). A streamed run recorded without a hash is never the same plan.
 * Answers the runs it ended.
 */
export async function supersedeInterrupted(
  store: StateStore,
  run: SupersedingRun,
  endedAt: () => string,
): Promise<EndedRun[]> {
  const interrupted = await store.listRuns({ threadId: run.threadId, status: "interrupted" });
  const runs = interrupted.filter(
    (earlier) =>
      earlier.planHash === run.planHash &&
      earlier.runId !== run.runId &&
      run.resumes?.has(earlier.runId) !== true,
  );
  if (runs.length === 0) return [];
  const reason = `superseded by run ${run.runId}, which ran the same plan to its end`;
  return endCrashedRuns(store, { runs }, endedAt, (previous) =>
    previous === undefined ? reason : `${reason} (${previous})`,
  );
}
