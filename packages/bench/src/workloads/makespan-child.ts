/**
 * Child process of the makespan workload: one engine, driven by its parent over IPC. Arguments: the engine
 * key and the makespan definition as JSON. It answers `ready` once its engine is loaded, then each request:
 * `warm` (warm-up runs with instant tasks within a budget; not timed), `run` (one timed run with the
 * seeded sleeps: its makespan and the lower bound from the sleeps it observed). The parent kills it at the end.
 */
import { setMaxListeners } from "node:events";
import { type EngineKey, loadAdapter } from "../adapters/registry.js";
import { timeRun, type WarmUpBudget, warmUntil } from "../measure.js";
import { work } from "../work.js";
import type { ChildReply, ChildRequest } from "./makespan-protocol.js";
import {
  lowerBound,
  type MakespanDefinition,
  makespanSetup,
  makespanSpec,
  sleepingTask,
} from "./makespan-setup.js";

// as in main.ts: LangGraph adds one abort listener per node to the run's signal (the default limit only warns)
setMaxListeners(0);
const [key = "naive", definition = "{}"] = process.argv.slice(2);
const setup = makespanSetup(JSON.parse(definition) as MakespanDefinition);
const adapter = await loadAdapter(key as EngineKey);
const send = (reply: ChildReply) => process.send?.(reply);

/** Warm-up with instant tasks: one run, then more within `budget` (run time, as for the overhead workload). */
async function warm(limit: number | undefined, budget: WarmUpBudget): Promise<ChildReply> {
  const instant = makespanSpec(setup, async (i, inputs) => work(i, inputs), limit);
  const first = await timeRun(adapter, setup.dag, instant, setup.expected);
  if (first.error !== undefined) return { type: "warmed", error: first.error };
  let last = first.ms;
  await warmUntil(
    budget,
    async () => {
      const run = await timeRun(adapter, setup.dag, instant, setup.expected);
      if (run.error !== undefined) return undefined;
      last = run.ms;
      return run.ms;
    },
    first.ms,
  );
  return { type: "warmed", runMs: last };
}

/** One timed run with the seeded sleeps. */
async function run(limit: number | undefined): Promise<ChildReply> {
  const observed: number[] = new Array(setup.dag.size).fill(0);
  const timed = await timeRun(
    adapter,
    setup.dag,
    makespanSpec(setup, sleepingTask(setup.durations, observed), limit),
    setup.expected,
  );
  if (timed.error !== undefined) return { type: "ran", error: timed.error };
  return { type: "ran", ms: timed.ms, observedBoundMs: lowerBound(setup.dag, observed, limit) };
}

process.on("message", (request: ChildRequest) => {
  const limit = request.limit ?? undefined;
  const answer = request.type === "warm" ? warm(limit, request.budget) : run(limit);
  void answer.then(send, (error: unknown) =>
    send({ type: request.type === "warm" ? "warmed" : "ran", error: String(error) }),
  );
});
send({ type: "ready", name: adapter.name });
