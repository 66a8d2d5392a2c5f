import { type JsonObject, type JsonValue, ObeliskError } from "@obelisk/core";
import type { RunRecord } from "../store-types.js";

/** The call list of a run's plan document (`{ type: "plan", plan: [calls] }`), or undefined. */
function callListOf(run: RunRecord): { document: JsonObject; list: readonly JsonValue[] } | undefined {
  const plan = run.plan;
  if (typeof plan !== "object" || plan === null || Array.isArray(plan)) return undefined;
  const document = plan as JsonObject;
  const list = document.plan;
  return Array.isArray(list) ? { document, list } : undefined;
}

/**
 * Throws unless calls may be appended to `run` (`appendRunCalls` of both stores): USAGE when it has ended
 * (its record is final) or its plan document has no call list.
 */
export function assertAppendable(run: RunRecord): void {
  if (run.status !== "running")
    throw new ObeliskError("USAGE", `run "${run.runId}" has ended (${run.status}): its plan is final`);
  if (callListOf(run) === undefined)
    throw new ObeliskError("USAGE", `run "${run.runId}" has no call list to append to`, {
      hint: 'appendRunCalls extends a streaming run\'s { type: "plan", plan: [] } document',
    });
}

/**
 * `run` with the calls appended to it so far (kept apart by the stores, so an append costs the calls
 * appended, not the whole plan) at the end of its call list; `run` itself when there are none.
 */
export function withAppendedCalls(run: RunRecord, appended: readonly JsonValue[]): RunRecord {
  const found = appended.length === 0 ? undefined : callListOf(run);
  if (found === undefined) return run;
  return { ...run, plan: { ...found.document, plan: [...found.list, ...appended] } };
}
