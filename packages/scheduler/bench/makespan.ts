/**
 * Makespan benchmark (issue 5): a random 200-call DAG of tools that each sleep 20 ms (real timers), unbounded
 * concurrency. Reports makespan / critical-path lower bound (depth × 20 ms; target ≤ 1.02) and, to separate
 * the scheduler from timer overshoot, makespan / a bare chain of `depth` awaited 20 ms timers.
 * Run: pnpm --filter @obelisk/scheduler bench:makespan
 */
import { performance } from "node:perf_hooks";
import { compile, createToolRegistry } from "@obelisk/compiler";
import { asRunId, asThreadId } from "@obelisk/core";
import { createMemoryStore, type StateStore } from "@obelisk/state";
import { executePlan } from "../src/index.js";
import { createNullStore } from "./null-store.js";
import { makePlan } from "./plans.js";

const N = Number(process.env.CALLS ?? 200);
const SLEEP_MS = Number(process.env.SLEEP_MS ?? 20);
const ROUNDS = Number(process.env.ROUNDS ?? 5);

const sleep = (ms: number): Promise<number> => new Promise((resolve) => setTimeout(() => resolve(1), ms));
/** The tools' sleep; 0 during warm-up (the engine's code is JIT-compiled before measuring, as in a long-lived host). */
let toolMs = SLEEP_MS;
const registry = createToolRegistry([
  { name: "sleep", run: () => (toolMs === 0 ? Promise.resolve(1) : sleep(toolMs)) },
]);

/** The plan (the overhead bench's random DAG with the sleeping tool) and its depth in calls. */
function planAndDepth(): { plan: ReturnType<typeof makePlan>; depth: number } {
  const plan = makePlan("random", N);
  const depthOf: number[] = [];
  for (const [i, call] of plan.plan.entries()) {
    call._tool = "sleep";
    let deepest = 0;
    for (const key of ["a", "b"]) {
      const ref = call[key];
      if (typeof ref === "string")
        deepest = Math.max(deepest, depthOf[Number(ref.slice("†state.v".length))] ?? 0);
    }
    depthOf[i] = deepest + 1;
  }
  return { plan, depth: Math.max(...depthOf) };
}

async function timerChain(depth: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < depth; i++) await sleep(SLEEP_MS);
  return performance.now() - t0;
}

/** Makespan (compile + run) and the compile time alone. */
async function makespan(
  plan: unknown,
  store: StateStore,
  round: number,
): Promise<{ total: number; compile: number }> {
  const threadId = asThreadId(`t${round}`);
  await store.openThread(threadId);
  const t0 = performance.now();
  const compiled = compile(plan, registry);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.diagnostics.slice(0, 3)));
  const compileMs = performance.now() - t0;
  const result = await executePlan(compiled, {
    registry,
    store,
    threadId,
    runId: asRunId(`r${round}`),
    planHash: compiled.planHash,
    input: {},
    state: {},
  });
  const elapsed = performance.now() - t0;
  if (result.status !== "succeeded") throw new Error(`run ${result.status}`);
  return { total: elapsed, compile: compileMs };
}

const { plan, depth } = planAndDepth();
toolMs = 0;
const warm = createNullStore();
for (let r = 0; r < 200; r++) await makespan(plan, warm, r);
toolMs = SLEEP_MS;
const bound = depth * SLEEP_MS;
const timers = [];
for (let r = 0; r < ROUNDS; r++) timers.push(await timerChain(depth));
const timerBest = Math.min(...timers);
console.log(`${N} calls, depth ${depth}, ${SLEEP_MS} ms per call: lower bound ${bound} ms`);
console.log(
  `bare timer chain of ${depth}: best ${timerBest.toFixed(1)} ms (${(timerBest / bound).toFixed(4)} × bound)`,
);
for (const [name, open] of [
  ["none", createNullStore],
  ["memory", createMemoryStore],
] as const) {
  const store = open();
  const runs: { total: number; compile: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) runs.push(await makespan(plan, store, r));
  const runPhase = Math.min(...runs.map((run) => run.total - run.compile));
  const times = runs.map((run) => run.total);
  const best = Math.min(...times);
  const compileMs = Math.min(...runs.map((run) => run.compile));
  const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? best;
  console.log(
    `${name.padEnd(6)} makespan best ${best.toFixed(1)} ms, median ${median.toFixed(1)} ms: ` +
      `${(best / bound).toFixed(4)} × lower bound, ${(best / timerBest).toFixed(4)} × bare timer chain ` +
      `(compile ${compileMs.toFixed(1)} ms; run phase alone ${(runPhase / bound).toFixed(4)} × lower bound)`,
  );
  await store.close();
}
