import { ObeliskError } from "@obelisk/core";
import type { RunRecord, StateStore } from "@obelisk/state";
import { cutMessage } from "./cut-message.js";

/** Characters of a cancelled run's reason kept in the message (the record holds all of it). */
const REASON_CHARS = 200;

/** What every refusal suggests: a new run of the plan (whose completed calls are satisfied). */
const RUN_AGAIN = "send the plan with run to run it again (engine.runs.show(runId).run.plan)";

/**
 * True for a run something else ended for good: `cancelled` with a `reason` — by a resume that continued it,
 * a run of the same plan that superseded it, or `runs.cancel`. A run its own signal cancelled (Ctrl-C) has
 * no reason: resuming it finishes what is left.
 */
const givenUp = (record: RunRecord): boolean => record.status === "cancelled" && record.reason !== undefined;

/**
 * RUN_NOT_RESUMABLE (`data: { runId, status, resumedBy? }`) when `record` may not be resumed (decision
 * 0070): `resumedBy`, a run recorded as resuming it, exists (its resume ran, or crashed in turn: resuming the
 * run again would run its calls a second time, a `fresh` tool's too), or it was ended for good (see
 * {@link givenUp}). Undefined when it may be resumed.
 */
function notResumable(record: RunRecord, resumedBy?: RunRecord): ObeliskError | undefined {
  if (resumedBy === undefined && !givenUp(record)) return undefined;
  const id = JSON.stringify(record.runId);
  const why =
    resumedBy === undefined
      ? `it was cancelled: ${cutMessage(record.reason ?? "", REASON_CHARS)}`
      : `run ${JSON.stringify(resumedBy.runId)} resumed it already (that run is ${resumedBy.status})`;
  const open = resumedBy?.status === "interrupted" || resumedBy?.status === "running";
  return new ObeliskError("RUN_NOT_RESUMABLE", `run ${id} cannot be resumed: ${why}`, {
    data: {
      runId: record.runId,
      status: record.status,
      ...(resumedBy === undefined ? {} : { resumedBy: resumedBy.runId }),
    },
    hint: open ? `resume run ${resumedBy?.runId} instead, which continues it; or ${RUN_AGAIN}` : RUN_AGAIN,
  });
}

/**
 * The refusal of a resume of `record` (see {@link notResumable}); undefined when it may be resumed. Before
 * the thread's lock (`locked` false) only a run given up is refused, without waiting for the thread; under
 * it, also one a run recorded with `resumeOf` continued.
 */
export async function resumeRefusal(
  store: StateStore,
  record: RunRecord,
  locked: boolean,
): Promise<ObeliskError | undefined> {
  if (!locked && !givenUp(record)) return undefined;
  return notResumable(record, await resumeOf(store, record));
}

/**
 * The newest run recorded as resuming `record`: the store's `resumedBy` (an index) or, for a store without
 * it (a custom one), the first such run of the thread's runs listed newest first (decision 0074).
 */
async function resumeOf(store: StateStore, record: RunRecord): Promise<RunRecord | undefined> {
  if (store.resumedBy !== undefined) return store.resumedBy(record.runId);
  const runs = await store.listRuns({ threadId: record.threadId });
  return runs.find((run) => run.resumeOf === record.runId);
}
