/**
 * `pnpm bench` for packages/bench: runs the five workloads of issue 7 side by side, prints a markdown
 * table and writes results.json (and results.md). `--quick`: small sizes, for development.
 * `--only=overhead,makespan,compile,context,agent-loop,memory`: a subset.
 */
import { setMaxListeners } from "node:events";
import { writeFile } from "node:fs/promises";
import { FULL_CONFIG, QUICK_CONFIG } from "./bench-config.js";
import { describeMachine } from "./machine.js";
import { type BenchResults, renderReport } from "./report.js";
import { checkTargets } from "./targets.js";
import { runAgentLoop } from "./workloads/agent-loop.js";
import { runCompile } from "./workloads/compile.js";
import { type ContextFigures, runContext } from "./workloads/context.js";
import { runMakespan } from "./workloads/makespan.js";
import { memorySkips, runMemory } from "./workloads/memory.js";
import { runOverhead } from "./workloads/overhead.js";

// LangGraph adds one abort listener per node to the run's signal; the default limit only prints warnings.
setMaxListeners(0);

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const only = args
  .find((a) => a.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",");
const wants = (name: string) => only === undefined || only.includes(name);
const config = quick ? QUICK_CONFIG : FULL_CONFIG;
const log = (line: string) => process.stderr.write(`${line}\n`);
const machine = describeMachine();
const started = performance.now();
const cpuStart = process.cpuUsage();
/** CPU seconds (user + system) of this process since `from` (the memory workload's children not included). */
const cpuSecondsSince = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return Math.round((used.user + used.system) / 1e6);
};

const seconds: Record<string, number> = {};
/** Runs one workload (when wanted) and records its wall time in seconds. */
async function timed<T>(name: string, run: () => Promise<T>, none: T): Promise<T> {
  if (!wants(name)) return none;
  const start = performance.now();
  const result = await run();
  seconds[name] = Math.round((performance.now() - start) / 1000);
  log(`${name}: ${seconds[name]} s`);
  return result;
}

const overhead = await timed("overhead", () => runOverhead(config, log), []);
const makespan = await timed("makespan", () => runMakespan(config, log), []);
const compile = await timed("compile", () => runCompile(config, log), []);
let contextError: string | undefined;
const context = await timed(
  "context",
  async (): Promise<ContextFigures | undefined> => {
    try {
      return await runContext(log);
    } catch (error) {
      contextError = error instanceof Error ? error.message : String(error);
      log(`context: ${contextError}`);
      return undefined;
    }
  },
  undefined,
);
const agentLoop = await timed("agent-loop", () => runAgentLoop(config, log), []);
const memory = await timed("memory", () => runMemory(config, memorySkips(config, overhead), log), []);

const results: BenchResults = {
  machine,
  mode: quick ? "quick" : "full",
  notes: [
    `Medians of the timed runs. Warm-up runs are excluded; every engine warms up by the same rule: overhead, at ${config.sizes[0]?.toLocaleString("en-US")} calls, one run per engine and case on a DAG of the same shape ${config.warmUpFraction}× the size, then runs on the case's DAG until their run times (not the GC, setup and checks around them) add up to ${config.warmUp.budgetMs / 1000} s or ${config.warmUp.maxRuns} are made at the first shape, the same share of both (${config.warmUp.laterRuns} runs) at the later ones (the engines are warm from the first; the larger sizes are warmed by the smaller ones); makespan, the same budget of runs with instant tasks per engine before its first setting and up to ${config.warmUp.laterRuns} before the next, then ${config.makespan.sleepingWarmUps} untimed runs with the sleeps per engine and setting; compile, the same budget of validations per shape at the first size.`,
    `Repetitions: ${config.sizes.map((s) => `${config.repsBySize(s)} at ${s.toLocaleString("en-US")}`).join(", ")} calls; an engine whose first timed run of a case took over ${config.slowRuns.ms / 1000} s gets ${config.slowRuns.reps}, over ${config.oneSampleMs / 1000} s 1 (the samples are in results.json). Makespan: ${config.makespan.reps} per engine and setting; compile: ${config.compile.reps} samples (${config.slowRuns.reps} for validations over ${config.slowRuns.ms / 1000} s), each a batch of validations covering ${Math.max(...config.compile.sizes).toLocaleString("en-US")} calls (so each size pays for the garbage collection of its own calls). Engines run interleaved in a fixed order.`,
    `Time limits: an overhead run predicted over ${config.maxRunMs / 1000} s from the engine's smaller sizes is skipped (reason under the table); a run over ${config.runTimeoutMs / 1000} s is cancelled and not counted; the engine under test's own runs (${config.underTest.engines.join(", ")}), which the targets are about, are ${Number.isFinite(config.underTest.maxRunMs) ? `skipped only when predicted over ${config.underTest.maxRunMs / 1000} s` : "never skipped by prediction"} and cancelled after ${config.underTest.runTimeoutMs / 1000} s; the single memory run is skipped when predicted over ${config.memoryMaxRunMs / 1000} s.`,
    "Every timed run is checked: each node's result must equal the sequential reference, or the figure is reported as an error.",
    `Memory: sparse DAG of ${config.memorySize.toLocaleString("en-US")} calls, one child process per engine (process.resourceUsage().maxRSS, whole process).`,
    `Agent loop: ${config.agentLoop.ticks.toLocaleString("en-US")} ticks per store on one engine and thread; each tick timed whole (validate, lock, run, durable commits, retention, result); medians of the first and last ${config.agentLoop.block} ticks. Obelisk only: it is what the engine does between two LLM turns.`,
    "Fastest peer = the fastest of async.auto, p-graph and LangGraph (the naive Promise.all baseline is shown as the floor, not a peer).",
  ],
  overhead,
  makespan,
  compile,
  ...(context === undefined ? {} : { context }),
  ...(contextError === undefined ? {} : { contextError }),
  memory,
  agentLoop,
  agentLoopBlock: config.agentLoop.block,
  targets: checkTargets(overhead, makespan, context),
  seconds,
  totalSeconds: Math.round((performance.now() - started) / 1000),
  cpuSeconds: cpuSecondsSince(cpuStart),
};

const report = renderReport(results);
process.stdout.write(`${report}\n`);
const suffix = quick || only !== undefined ? ".partial" : "";
await writeFile(
  new URL(`../results${suffix}.json`, import.meta.url),
  `${JSON.stringify(results, null, 2)}\n`,
);
await writeFile(new URL(`../results${suffix}.md`, import.meta.url), report);
