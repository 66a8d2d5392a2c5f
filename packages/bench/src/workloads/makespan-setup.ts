import { setTimeout as sleep } from "node:timers/promises";
import type { NodeTask, RunSpec } from "../adapters/adapter.js";
import type { EngineKey } from "../adapters/registry.js";
import { criticalPath, type Dag, generateDag } from "../dag.js";
import { createRandom, randomInt } from "../random.js";
import { referenceResults, work } from "../work.js";

/** Engines of the makespan workload, in report order (the priority variant only matters with a limit). */
export const MAKESPAN_ENGINES: readonly EngineKey[] = [
  "naive",
  "async-auto",
  "p-graph",
  "p-graph-priorities",
  "langgraph",
  "obelisk-memory",
];

/** What defines the makespan DAG: the parent and each child process derive the same one from it. */
export interface MakespanDefinition {
  readonly size: number;
  readonly minMs: number;
  readonly maxMs: number;
  readonly seed: number;
}

/** The makespan case: a seeded sparse DAG, its seeded sleep durations (ms) and its reference results. */
export interface MakespanSetup {
  readonly dag: Dag;
  readonly durations: readonly number[];
  readonly expected: readonly number[];
}

/** Builds the case from its definition (deterministic). */
export function makespanSetup({ size, minMs, maxMs, seed }: MakespanDefinition): MakespanSetup {
  const dag = generateDag("sparse", size, seed);
  const random = createRandom(seed + 1);
  const durations = Array.from({ length: size }, () => randomInt(random, minMs, maxMs));
  return { dag, durations, expected: referenceResults(dag) };
}

/** The lower bound (ms): the critical path, or with a limit max(critical path, total work / limit). */
export function lowerBound(dag: Dag, cost: readonly number[], limit: number | undefined): number {
  const path = criticalPath(dag, cost);
  if (limit === undefined) return path;
  return Math.max(path, cost.reduce((a, b) => a + b, 0) / limit);
}

/** A task that sleeps `durations[i]` ms and records the time it actually slept. */
export function sleepingTask(durations: readonly number[], observed: number[]): NodeTask {
  return async (i, inputs) => {
    const start = performance.now();
    await sleep(durations[i] ?? 0);
    observed[i] = performance.now() - start;
    return work(i, inputs);
  };
}

/** The run spec of one setting: `task`, the known costs (for p-graph's oracle) and the limit, if any. */
export function makespanSpec(setup: MakespanSetup, task: NodeTask, limit: number | undefined): RunSpec {
  return { task, cost: setup.durations, ...(limit === undefined ? {} : { concurrency: limit }) };
}
