import { createRandom, type Random, randomInt } from "./random.js";

/** The DAG shapes of issue 7's overhead workload. */
export type DagShape = "chain" | "wide" | "layered" | "sparse";

/** Every shape, in report order. */
export const DAG_SHAPES: readonly DagShape[] = ["chain", "wide", "layered", "sparse"];

/**
 * The neutral DAG description every adapter runs: nodes `0..size-1` in topological order;
 * `deps[i]` lists the nodes node `i` reads, all smaller than `i`, in the order they are passed.
 */
export interface Dag {
  /** Shape that generated it. */
  readonly shape: DagShape;
  /** Number of nodes. */
  readonly size: number;
  /** Dependencies of each node (indices of earlier nodes). */
  readonly deps: readonly (readonly number[])[];
}

/** Width of the `layered` shape. */
export const LAYER_WIDTH = 50;
/** Most dependencies a `sparse` (or `layered`) node has. */
export const MAX_SPARSE_DEPS = 3;

/** Generates a seeded DAG of `size` nodes (size ≥ 3). */
export function generateDag(shape: DagShape, size: number, seed = 1): Dag {
  if (!Number.isInteger(size) || size < 3)
    throw new RangeError(`DAG size must be an integer ≥ 3, got ${size}`);
  const random = createRandom(seed);
  const deps: number[][] = [];
  for (let i = 0; i < size; i++) deps.push(depsOf(shape, i, size, random));
  return { shape, size, deps };
}

function depsOf(shape: DagShape, i: number, size: number, random: Random): number[] {
  switch (shape) {
    case "chain":
      return i === 0 ? [] : [i - 1];
    case "wide":
      if (i === 0) return [];
      if (i < size - 1) return [0];
      return Array.from({ length: size - 2 }, (_, k) => k + 1);
    case "layered": {
      const layer = Math.floor(i / LAYER_WIDTH);
      if (layer === 0) return [];
      return pickDistinct(
        random,
        (layer - 1) * LAYER_WIDTH,
        LAYER_WIDTH,
        randomInt(random, 1, MAX_SPARSE_DEPS),
      );
    }
    case "sparse":
      return pickDistinct(random, 0, i, Math.min(i, randomInt(random, 1, MAX_SPARSE_DEPS)));
  }
}

/** `count` distinct integers from `[from, from + span)`, sorted ascending. */
function pickDistinct(random: Random, from: number, span: number, count: number): number[] {
  const picked = new Set<number>();
  while (picked.size < count) picked.add(from + Math.floor(random() * span));
  return [...picked].sort((a, b) => a - b);
}

/** Depth of each node (0 for roots): the level the naive baseline runs it in. */
export function levelsOf(dag: Dag): number[][] {
  const depth = new Int32Array(dag.size);
  const levels: number[][] = [];
  for (let i = 0; i < dag.size; i++) {
    let d = 0;
    for (const j of dag.deps[i] ?? []) d = Math.max(d, (depth[j] ?? 0) + 1);
    depth[i] = d;
    const level = levels[d];
    if (level === undefined) levels[d] = [i];
    else level.push(i);
  }
  return levels;
}

/** Nodes nobody depends on. */
export function sinksOf(dag: Dag): number[] {
  const used = new Uint8Array(dag.size);
  for (const list of dag.deps) for (const j of list) used[j] = 1;
  const sinks: number[] = [];
  for (let i = 0; i < dag.size; i++) if (used[i] === 0) sinks.push(i);
  return sinks;
}

/** Longest path through the DAG where node `i` costs `cost[i]` (the critical path). */
export function criticalPath(dag: Dag, cost: readonly number[]): number {
  const finish = new Float64Array(dag.size);
  let longest = 0;
  for (let i = 0; i < dag.size; i++) {
    let start = 0;
    for (const j of dag.deps[i] ?? []) start = Math.max(start, finish[j] ?? 0);
    const end = start + (cost[i] ?? 0);
    finish[i] = end;
    longest = Math.max(longest, end);
  }
  return longest;
}
