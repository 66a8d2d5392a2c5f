import { type JsonObject, type JsonValue, ObeliskError } from "@obelisk/core";
import type { RunRecord } from "../store-types.js";

/**
 * The plan document of `run` with `calls` appended to its call list (`appendRunCalls` of both stores).
 * USAGE when the run has ended (its record is final) or its plan document has no call list.
 */
export function withAppendedCalls(run: RunRecord, calls: readonly JsonValue[]): JsonObject {
  if (run.status !== "running")
    throw new ObeliskError("USAGE", `run "${run.runId}" has ended (${run.status}): its plan is final`);
  const plan = run.plan;
  const document =
    typeof plan === "object" && plan !== null && !Array.isArray(plan) ? (plan as JsonObject) : undefined;
  const list = document?.plan;
  if (document === undefined || !Array.isArray(list))
    throw new ObeliskError("USAGE", `run "${run.runId}" has no call list to append to`, {
      hint: 'appendRunCalls extends a streaming run\'s { type: "plan", plan: [] } document',
    });
  return { ...document, plan: [...list, ...calls] };
}
