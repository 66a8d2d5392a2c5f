import type { RunId } from "@obelisk/core";
import type { RunRecord, StateStore } from "@obelisk/state";
import type { ResumedNumbering } from "./engine-runtime.js";

/** Most runs a resume chain is followed through (a resume of a resume of …), newest first. */
const MAX_CHAIN = 1000;

/** What a resume continues: the run it was asked for and, through `resumeOf`, the runs that one resumed. */
export interface ResumeChain {
  /** The run being resumed (the new run record's `resumeOf`). */
  readonly resumeOf: RunId;
  /** Every run of the chain, newest first (the one being resumed first). */
  readonly runs: readonly RunRecord[];
  /** Their ids: their records satisfy only the call with the same id. */
  readonly runIds: ReadonlySet<string>;
  /** The original numbering of automatic ids (absent for records without `firstAutoIdNumber`). */
  readonly numbering: ResumedNumbering | undefined;
}

/**
 * Follows `record` back through `resumeOf` on its thread (stopping at a missing run, a loop or
 * {@link MAX_CHAIN}): a resume of a crashed resume keeps the original's automatic ids, because the calls
 * recorded by any run of the chain are its own.
 */
export async function resumeChain(store: StateStore, record: RunRecord): Promise<ResumeChain> {
  const runs: RunRecord[] = [record];
  const runIds = new Set<string>([record.runId]);
  let current = record;
  while (current.resumeOf !== undefined && runs.length < MAX_CHAIN && !runIds.has(current.resumeOf)) {
    const previous = await store.getRun(current.resumeOf);
    if (previous === undefined || previous.threadId !== record.threadId) break;
    runs.push(previous);
    runIds.add(previous.runId);
    current = previous;
  }
  const first = record.firstAutoIdNumber;
  let numbering: ResumedNumbering | undefined;
  if (first !== undefined && Number.isSafeInteger(first) && first >= 1) {
    const ownCallIds = new Set<string>();
    for (const run of runs)
      for (const call of await store.listCallRecords(run.runId)) ownCallIds.add(call.callId);
    numbering = { firstAutoIdNumber: first, ownCallIds };
  }
  return { resumeOf: record.runId, runs, runIds, numbering };
}
