import type { Dag } from "./dag.js";

/**
 * The no-op work of every node: a cheap hash of the node index and its inputs (in dependency order),
 * so each result is a function of its inputs and results can be compared across engines.
 */
export function work(index: number, inputs: readonly number[]): number {
  let hash = (index + 1) | 0;
  for (const value of inputs) hash = (Math.imul(hash, 31) + value) | 0;
  return hash >>> 0;
}

/** The expected result of every node, computed sequentially. */
export function referenceResults(dag: Dag): number[] {
  const results: number[] = new Array(dag.size);
  for (let i = 0; i < dag.size; i++) {
    const deps = dag.deps[i] ?? [];
    results[i] = work(
      i,
      deps.map((j) => results[j] ?? 0),
    );
  }
  return results;
}

/** Index of the first node whose result differs from the reference, or -1 when all match. */
export function firstMismatch(expected: readonly number[], actual: readonly number[]): number {
  if (actual.length !== expected.length) return Math.min(actual.length, expected.length);
  for (let i = 0; i < expected.length; i++) if (expected[i] !== actual[i]) return i;
  return -1;
}
