import { levelsOf } from "../dag.js";
import { type Adapter, preparedRun } from "./adapter.js";

/**
 * The hand-written baseline: topological levels run one after another with `Promise.all`
 * (with a limit, a FIFO worker pool inside each level). No scheduling, no state, no checks.
 */
export const naiveAdapter: Adapter = {
  name: "naive Promise.all",
  async prepare(dag, spec) {
    return preparedRun(async () => {
      const results: number[] = new Array(dag.size);
      const runNode = async (i: number): Promise<void> => {
        const inputs = (dag.deps[i] ?? []).map((j) => results[j] ?? 0);
        results[i] = await spec.task(i, inputs);
      };
      for (const level of levelsOf(dag)) {
        if (spec.concurrency === undefined) await Promise.all(level.map(runNode));
        else await runPool(level, spec.concurrency, runNode);
      }
      return results;
    });
  },
};

/** Runs `items` through `limit` workers taking them in order. */
async function runPool(
  items: readonly number[],
  limit: number,
  run: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++];
      if (item !== undefined) await run(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
