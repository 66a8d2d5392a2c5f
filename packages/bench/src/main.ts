/**
 * `pnpm bench` for packages/bench: runs the five workloads of issue 7 side by side, prints a markdown
 * table and writes results.json (and results.md). `--quick`: small sizes, for development.
 * `--only=overhead,makespan,compile,context,memory`: a subset.
 */
import { setMaxListeners } from "node:events";
import { writeFile } from "node:fs/promises";
import { FULL_CONFIG, QUICK_CONFIG } from "./bench-config.js";
import { describeMachine } from "./machine.js";
import { type BenchResults, renderReport } from "./report.js";
import { checkTargets } from "./targets.js";
import { runCompile } from "./workloads/compile.js";
import { type ContextFigures, runContext } from "./workloads/context.js";
import { runMakespan } from "./workloads/makespan.js";
import { MEMORY_CHILD_TIMEOUT_MS, runMemory } from "./workloads/memory.js";
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

const overhead = wants("overhead") ? await runOverhead(config, log) : [];
const makespan = wants("makespan") ? await runMakespan(config, log) : [];
const compile = wants("compile") ? await runCompile(config, log) : [];
let context: ContextFigures | undefined;
let contextError: string | undefined;
if (wants("context")) {
  try {
    context = await runContext(log);
  } catch (error) {
    contextError = error instanceof Error ? error.message : String(error);
    log(`context: ${contextError}`);
  }
}
const memorySkips = new Map<string, string>(
  Object.entries(config.caps)
    .filter(([, cap]) => cap.maxSize < config.memorySize)
    .map(([key, cap]) => [key, cap.reason]),
);
const sameRun = overhead.find((c) => c.shape === "sparse" && c.size === config.memorySize);
for (const figure of sameRun?.engines ?? []) {
  // A predicted-slow engine still gets its memory run unless it could not finish before the child is killed.
  const mayFinish = figure.predictedMs !== undefined && figure.predictedMs < MEMORY_CHILD_TIMEOUT_MS / 2;
  if (figure.skipped !== undefined && !mayFinish) {
    memorySkips.set(figure.key, `skipped in the overhead workload: ${figure.skipped}`);
  }
}
const memory = wants("memory") ? await runMemory(config, memorySkips, log) : [];

const results: BenchResults = {
  machine,
  mode: quick ? "quick" : "full",
  notes: [
    "Medians of the timed runs; one warm-up run per engine and case is excluded (the largest overhead size has no separate warm-up: the previous size warmed the JIT).",
    `Repetitions: ${config.sizes.map((s) => `${config.repsBySize(s)} at ${s.toLocaleString("en-US")}`).join(", ")} calls; an engine whose warm-up took > 1.5 s gets 3. Engines run interleaved in a fixed order.`,
    "Every timed run is checked: each node's result must equal the sequential reference, or the figure is reported as an error.",
    `Memory: sparse DAG of ${config.memorySize.toLocaleString("en-US")} calls, one child process per engine (process.resourceUsage().maxRSS, whole process).`,
    "Fastest peer = the fastest of async.auto, p-graph and LangGraph (the naive Promise.all baseline is shown as the floor, not a peer).",
  ],
  overhead,
  makespan,
  compile,
  ...(context === undefined ? {} : { context }),
  ...(contextError === undefined ? {} : { contextError }),
  memory,
  targets: checkTargets(overhead, makespan, context),
  totalSeconds: Math.round((performance.now() - started) / 1000),
};

const report = renderReport(results);
process.stdout.write(`${report}\n`);
const suffix = quick || only !== undefined ? ".partial" : "";
await writeFile(
  new URL(`../results${suffix}.json`, import.meta.url),
  `${JSON.stringify(results, null, 2)}\n`,
);
await writeFile(new URL(`../results${suffix}.md`, import.meta.url), report);
