import {
  type JsonValue,
  normalizePlan,
  ObeliskError,
  type PlanHash,
  planHash,
  type RunId,
} from "@obelisk/core";
import type { RunRecord, StateStore } from "@obelisk/state";

/**
 * Records a new run; a run id the store already holds (an injected `generateId` that repeats itself) is
 * refused with USAGE instead of overwriting another run's record.
 */
export async function recordRun(store: StateStore, run: RunRecord): Promise<void> {
  if ((await store.getRun(run.runId as RunId)) !== undefined)
    throw new ObeliskError(
      "USAGE",
      `run id ${run.runId} is already recorded: the engine's generateId() must not repeat an id`,
      { data: { runId: run.runId } },
    );
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
