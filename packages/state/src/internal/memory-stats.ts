import type { StoreStats } from "../store-types.js";
import type { ThreadModel } from "./thread-model.js";

/** {@link StoreStats} of the given models (every cached one, or one thread's) and their count of runs. */
export function memoryStats(models: readonly ThreadModel[], runs: number): StoreStats {
  const totals = { state: { count: 0, bytes: 0 }, calls: { count: 0, bytes: 0 } };
  for (const model of models) {
    for (const { meta } of model.variables.values()) {
      totals[meta.scope].count += 1;
      totals[meta.scope].bytes += meta.bytes;
    }
  }
  return {
    threads: models.length,
    variables: totals.state.count,
    variableBytes: totals.state.bytes,
    callOutputs: totals.calls.count,
    callOutputBytes: totals.calls.bytes,
    runs,
  };
}
