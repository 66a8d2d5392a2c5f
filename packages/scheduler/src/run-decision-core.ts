import { type CallsById, createClaims, createWritersOf } from "./call-writers.js";
import { DecisionCore } from "./decision-core.js";
import type { CallRun, RunnerOptions } from "./runner-types.js";
import type { WorkingContext } from "./working-context.js";

/**
 * The decision core of a run over its calls (`runs`, `byId`) and working context. Calls made ready
 * together start critical path first (`options.criticalPaths`), as they get slots under a limit.
 */
export function runDecisionCore(
  options: RunnerOptions,
  context: WorkingContext,
  runs: readonly CallRun[],
  byId: CallsById,
): DecisionCore {
  const paths = options.criticalPaths;
  return new DecisionCore({
    probe: context,
    closed: options.streaming !== true,
    writersOf: createWritersOf(byId),
    claims: createClaims(),
    ...(paths === undefined
      ? {}
      : { rank: (index: number) => paths.get((runs[index] as CallRun).call.id) ?? 0 }),
  });
}
