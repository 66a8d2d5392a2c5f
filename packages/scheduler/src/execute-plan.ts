import type { CompiledPlan } from "@obelisk/compiler";
import { ObeliskError } from "@obelisk/core";
import { PlanRunner } from "./plan-runner.js";
import type { ExecutionResult, RunnerOptions } from "./runner-types.js";

/**
 * Executes a compiled (valid) plan once: every call runs as soon as its references are decided, results
 * are committed through the store before dependents start. Resolves when every call has settled; rejects
 * only on store failures (STORE_ERROR). The run record itself is the caller's business.
 */
export function executePlan(
  plan: CompiledPlan,
  options: Omit<RunnerOptions, "criticalPaths" | "streaming">,
): Promise<ExecutionResult> {
  if (!plan.ok)
    throw new ObeliskError("PLAN_INVALID", "the plan has errors; validate it first", {
      data: { ok: false, planHash: plan.planHash, diagnostics: plan.diagnostics },
    });
  const runner = new PlanRunner(
    {
      ...options,
      streaming: false,
      ...(plan.criticalPaths === undefined ? {} : { criticalPaths: plan.criticalPaths }),
    },
    plan.calls.length,
  );
  runner.add(plan.calls);
  return runner.close();
}
