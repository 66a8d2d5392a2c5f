/** Run phase only (compile once, execute 8 times, no persistence): `SHAPE=random node --conditions=@obelisk/source --import tsx bench/run-only.ts`; add --cpu-prof to profile. */
import { compile, createToolRegistry } from "@obelisk/compiler";
import { asRunId, asThreadId } from "@obelisk/core";
import { executePlan } from "../src/index.js";
import { createNullStore } from "./null-store.js";
import { makePlan } from "./plans.js";

const registry = createToolRegistry([{ name: "noop", run: () => 1 }]);
const shape = (process.env.SHAPE ?? "wide") as "wide";
const compiled = compile(makePlan(shape, 10000), registry);
const store = createNullStore();
const threadId = asThreadId("t");
await store.openThread(threadId);
const rounds = Number(process.env.ROUNDS ?? 8);
let best = Number.POSITIVE_INFINITY;
for (let round = 0; round < rounds; round++) {
  const t1 = performance.now();
  await executePlan(compiled, {
    registry,
    store,
    threadId,
    runId: asRunId("r"),
    planHash: compiled.planHash,
    input: {},
    state: {},
  });
  const t2 = performance.now();
  best = Math.min(best, t2 - t1);
}
console.log(shape, "run: best of", rounds, (best / 10).toFixed(2), "µs/call");
