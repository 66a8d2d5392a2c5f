import type { JsonValue } from "@obelisk/core";
import type { RunRecord, RunSummary } from "../store-types.js";

/** How many calls a plan document (`{ type: "plan", plan: [calls] }`) or bare call list holds. */
function callCount(plan: JsonValue): number {
  if (Array.isArray(plan)) return plan.length;
  if (typeof plan !== "object" || plan === null) return 0;
  const list = (plan as { readonly plan?: JsonValue }).plan;
  return Array.isArray(list) ? list.length : 0;
}

/** `run` without its plan and input, with its call count (`appended`: calls appended to it so far). */
export function runSummary(run: RunRecord, appended = 0): RunSummary {
  const { plan, input: _input, ...rest } = run;
  return { ...rest, calls: callCount(plan) + appended };
}
