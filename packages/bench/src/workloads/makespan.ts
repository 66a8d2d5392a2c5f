import { setTimeout as sleep } from "node:timers/promises";
import type { Adapter, NodeTask } from "../adapters/adapter.js";
import { type EngineKey, loadAdapter } from "../adapters/registry.js";
import { type BenchConfig, laterWarmUp } from "../bench-config.js";
import { criticalPath, type Dag, generateDag } from "../dag.js";
import { timeRun, warmUntil } from "../measure.js";
import { createRandom, randomInt } from "../random.js";
import { median, round } from "../stats.js";
import { referenceResults, work } from "../work.js";

/** Engines of the makespan workload, in run order (the priority variant only matters with a limit). */
const MAKESPAN_ENGINES: readonly EngineKey[] = [
  "naive",
  "async-auto",
  "p-graph",
  "p-graph-priorities",
  "langgraph",
  "obelisk-memory",
];

/** One engine's makespan figures for one concurrency setting. */
export interface MakespanFigure {
  readonly engine: string;
  /** Median makespan (ms). */
  readonly medianMs?: number;
  /** Median of makespan / nominal lower bound (from the seeded durations). */
  readonly ratioToBound?: number;
  /** Median of makespan / lower bound recomputed from the sleeps actually observed in that run (timer slack removed). */
  readonly ratioToObservedBound?: number;
  readonly samplesMs?: readonly number[];
  readonly error?: string;
}

/** Makespan results for one concurrency setting. */
export interface MakespanCase {
  /** `unbounded` or the limit. */
  readonly concurrency: number | "unbounded";
  /** Nominal lower bound (ms): critical path, or max(critical path, total work / limit). */
  readonly lowerBoundMs: number;
  readonly engines: readonly MakespanFigure[];
}

function lowerBound(dag: Dag, cost: readonly number[], limit: number | undefined): number {
  const path = criticalPath(dag, cost);
  if (limit === undefined) return path;
  return Math.max(path, cost.reduce((a, b) => a + b, 0) / limit);
}

/** A task that sleeps `durations[i]` ms and records the time it actually slept. */
function sleepingTask(durations: readonly number[], observed: number[]): NodeTask {
  return async (i, inputs) => {
    const start = performance.now();
    await sleep(durations[i] ?? 0);
    observed[i] = performance.now() - start;
    return work(i, inputs);
  };
}

/** Workload 2: seeded 5–50 ms sleeps on a random DAG; makespan / lower bound, unbounded and limit 4. */
export async function runMakespan(config: BenchConfig, log: (line: string) => void): Promise<MakespanCase[]> {
  const { size, minMs, maxMs, reps } = config.makespan;
  const dag = generateDag("sparse", size, config.seed);
  const random = createRandom(config.seed + 1);
  const durations = Array.from({ length: size }, () => randomInt(random, minMs, maxMs));
  const expected = referenceResults(dag);
  const adapters: Adapter[] = [];
  for (const key of MAKESPAN_ENGINES) adapters.push(await loadAdapter(key));
  const cases: MakespanCase[] = [];
  const warmed = new Set<Adapter>();
  for (const limit of [undefined, 4]) {
    const active = limit === undefined ? adapters.filter((a) => !a.name.includes("priorities")) : adapters;
    const bound = lowerBound(dag, durations, limit);
    const spec = (task: NodeTask) => ({
      task,
      cost: durations,
      ...(limit === undefined ? {} : { concurrency: limit }),
    });
    // Warm-up with instant tasks (not timed): at least one run, more within the budget of run time. An
    // engine that ran the first setting (warm-up and timed runs: the same code but the limit's queue) gets
    // a few runs with the limit; one new in this setting (p-graph with priorities) the whole budget.
    const later = laterWarmUp(config);
    for (const adapter of active) {
      const budget = warmed.has(adapter) ? later : config.warmUp;
      warmed.add(adapter);
      const instant = spec(async (i, inputs) => work(i, inputs));
      const first = await timeRun(adapter, dag, instant, expected);
      if (first.error !== undefined) continue;
      await warmUntil(
        budget,
        async () => {
          const run = await timeRun(adapter, dag, instant, expected);
          return run.error === undefined ? run.ms : undefined;
        },
        first.ms,
      );
    }
    const runs = active.map(() => ({
      ms: [] as number[],
      ratios: [] as number[],
      observedRatios: [] as number[],
      error: undefined as string | undefined,
    }));
    for (let rep = 0; rep < reps; rep++) {
      for (const [index, adapter] of active.entries()) {
        const entry = runs[index];
        if (entry === undefined || entry.error !== undefined) continue;
        const observed: number[] = new Array(size).fill(0);
        const run = await timeRun(adapter, dag, spec(sleepingTask(durations, observed)), expected);
        if (run.error !== undefined) entry.error = run.error;
        else {
          entry.ms.push(run.ms);
          entry.ratios.push(run.ms / bound);
          entry.observedRatios.push(run.ms / lowerBound(dag, observed, limit));
        }
      }
    }
    const engines = active.map((adapter, index): MakespanFigure => {
      const entry = runs[index];
      if (entry?.error !== undefined) return { engine: adapter.name, error: entry.error };
      return {
        engine: adapter.name,
        medianMs: round(median(entry?.ms ?? [])),
        ratioToBound: round(median(entry?.ratios ?? []), 4),
        ratioToObservedBound: round(median(entry?.observedRatios ?? []), 4),
        samplesMs: (entry?.ms ?? []).map((ms) => round(ms)),
      };
    });
    cases.push({ concurrency: limit ?? "unbounded", lowerBoundMs: round(bound), engines });
    log(
      `makespan ${limit ?? "unbounded"} (bound ${round(bound)} ms): ${engines.map((e) => `${e.engine}=${e.ratioToBound ?? e.error}`).join(", ")}`,
    );
  }
  return cases;
}
