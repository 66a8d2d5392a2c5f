import {
  type JsonValue,
  normalizePlan,
  ObeliskError,
  type PlanHash,
  planHash,
  type RunId,
  thrownMessage,
} from "@obelisk/core";
import type { FinishRunOptions, RunRecord, RunStatus, StateStore } from "@obelisk/state";
import type { RunLease } from "./active-runs.js";

/**
 * Throws USAGE when the store already holds a run with this id (an injected `generateId` that repeats
 * itself): a run asks before it opens its thread or takes call numbers, so the refusal leaves no trace.
 */
export async function refuseRecordedRunId(store: StateStore, runId: RunId): Promise<void> {
  if ((await store.getRun(runId)) !== undefined)
    throw new ObeliskError(
      "USAGE",
      `run id ${runId} is already recorded: the engine's generateId() must not repeat an id`,
      { data: { runId } },
    );
}

/**
 * Records a new run; a run id the store already holds is refused with USAGE (asked again here: a run of
 * another thread may have recorded it since) instead of overwriting another run's record.
 */
export async function recordRun(store: StateStore, run: RunRecord): Promise<void> {
  await refuseRecordedRunId(store, run.runId);
  await store.createRun(run);
}

/**
 * The hash of a plan document as the record stores it (a streaming run's: the calls it accepted, with its
 * `inputSchema`), the same `validate` gives; undefined when it is not a plan document.
 */
export function storedPlanHash(plan: JsonValue): PlanHash | undefined {
  const document = normalizePlan(plan).document;
  return document === undefined ? undefined : planHash(document);
}

/**
 * The status a run's record ends with: its execution's, except that a run `engine.close()` cancelled is
 * `interrupted` — stopped by a shutdown, to resume (decision 0030); its caller is still answered `cancelled`.
 */
export function endingStatus(
  status: "succeeded" | "failed" | "cancelled",
  lease: Pick<RunLease, "stoppedBy">,
): RunStatus {
  return status === "cancelled" && lease.stoppedBy === "engine-close" ? "interrupted" : status;
}

/**
 * The engine clock's time when a run is asked for (`run-start`'s `queuedMs` counts from it), or undefined
 * when the clock fails: the run then meets that failure where it always did, once it reads the clock.
 */
export function requestTime(now: () => number): number | undefined {
  try {
    return now();
  } catch {
    return undefined;
  }
}

/** The `reason` of a run record `engine.close()` stopped (decision 0030): a crashed run's is the store's. */
export const ENGINE_CLOSED_REASON = "the engine was closed (engine.close()) while this run was in progress";

/** `finishRun`'s options for a run ending with `status`: an `interrupted` one says the engine was closed. */
export function endingOptions(status: RunStatus): FinishRunOptions | undefined {
  return status === "interrupted" ? { reason: ENGINE_CLOSED_REASON } : undefined;
}

/**
 * `finishRun`'s options for a run an error ended (a store error, its lock taken over): the error's code and
 * message as the record's `reason`, so `runs show` says why a run with no failed call failed.
 */
export function failedRunOptions(error: unknown): FinishRunOptions {
  const code = ObeliskError.is(error) ? error.code : "INTERNAL";
  const message = thrownMessage(error);
  return { reason: `${code}: ${message}` };
}
