import { bench, describe } from "vitest";
import { generatePlan, type PlanShape } from "./__fixtures__/generate-plans.js";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const shapes: PlanShape[] = ["chain", "fan-out", "random-dag"];

/**
 * Best of `repeat` samples, per run; a sample is `batch` runs in a row. Batches of equal calls (100 runs of
 * 100, 10 of 1k, 1 of 10k) make every size pay for the scavenges its own garbage causes: a lone small
 * compile usually runs between two and leaves its garbage to a later one.
 */
function timeMs(run: () => void, repeat = 3, batch = 1): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < repeat; i++) {
    const start = performance.now();
    for (let b = 0; b < batch; b++) run();
    best = Math.min(best, (performance.now() - start) / batch);
  }
  return best;
}

for (const shape of shapes) {
  const times = [100, 1_000, 10_000].map((size) => {
    const plan = generatePlan(shape, size);
    compile(plan, registry);
    return timeMs(() => compile(plan, registry), 3, 10_000 / size);
  });
  const [t100, t1k, t10k] = times as [number, number, number];
  console.log(
    `compile ${shape}: 100 → ${t100.toFixed(1)} ms, 1k → ${t1k.toFixed(1)} ms, 10k → ${t10k.toFixed(1)} ms, 1k→10k ratio ${(t10k / t1k).toFixed(1)}×`,
  );
}
{
  const plan = generatePlan("random-dag", 10_000);
  const perCall =
    timeMs(() => {
      const compiler = createIncrementalCompiler(registry);
      for (const call of plan.plan) compiler.addCall(call);
    }) / 10_000;
  console.log(`incremental addCall (10k random DAG): ${(perCall * 1000).toFixed(1)} µs per call`);
}

describe("compile", () => {
  for (const shape of shapes) {
    const plan = generatePlan(shape, 10_000);
    bench(
      `${shape} 10k calls`,
      () => {
        compile(plan, registry);
      },
      // one warm-up compile and 3 timed (vitest's defaults, 5 warm-ups and at least 500 ms, made ~9 compiles of
      // 10k calls per shape; the best-of-3 lines printed above already time these plans)
      { warmupIterations: 1, warmupTime: 0, iterations: 3, time: 0 },
    );
  }
});
