import { compile, type ToolRegistry } from "@obelisk/compiler";
import { asRunId, asThreadId } from "@obelisk/core";
import { createMemoryStore, type StateStore } from "@obelisk/state";
import { executePlan } from "../execute-plan.js";
import type { ExecutionResult, RunnerOptions } from "../runner-types.js";

/** Options of {@link runPlan}: runner options besides the ones it fills in. */
export type RunPlanOptions = Partial<Omit<RunnerOptions, "registry" | "criticalPaths" | "streaming">>;

/** Compiles `plan` (it must be valid) and executes it on a fresh memory store, thread `t`, run `r`. */
export async function runPlan(
  registry: ToolRegistry,
  plan: unknown,
  options: RunPlanOptions = {},
): Promise<{ result: ExecutionResult; store: StateStore }> {
  const compiled = compile(plan, registry);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.diagnostics));
  const store = options.store ?? createMemoryStore();
  const threadId = asThreadId("t");
  await store.openThread(threadId);
  const result = await executePlan(compiled, {
    store,
    threadId,
    runId: asRunId("r"),
    planHash: compiled.planHash,
    input: {},
    state: await store.readState(threadId),
    ...options,
    registry,
  });
  return { result, store };
}

/** Each call's `[status, error code]` by call id. */
export function statusOf(result: ExecutionResult): Record<string, [string, string | undefined]> {
  return Object.fromEntries(result.calls.map((call) => [call.callId, [call.status, call.error?.code]]));
}
