import type { PlanGraph } from "./compiled-plan.js";

/**
 * The remaining critical path of every node: its own cost plus the largest critical path among the
 * calls that read from it (SPEC §7: longest path first). Reverse topological order, O(V+E).
 * Nodes on a cycle (an invalid plan) get a finite value from the successors that could be ordered.
 * A join node (decision 0080) costs nothing: `costOf` is asked for calls only.
 */
export function computeCriticalPaths(graph: PlanGraph, costOf: (id: string) => number): Map<string, number> {
  const cost = (id: string) => (graph.getNodeAttribute(id, "kind") === "join" ? 0 : costOf(id));
  const result = new Map<string, number>();
  const remaining = new Map<string, number>();
  const ready: string[] = [];
  graph.forEachNode((id) => {
    const outDegree = graph.outDegree(id);
    remaining.set(id, outDegree);
    if (outDegree === 0) ready.push(id);
  });
  for (let id = ready.pop(); id !== undefined; id = ready.pop()) {
    let longest = 0;
    for (const next of graph.outNeighbors(id)) longest = Math.max(longest, result.get(next) ?? 0);
    result.set(id, cost(id) + longest);
    for (const previous of graph.inNeighbors(id)) {
      const left = (remaining.get(previous) as number) - 1;
      remaining.set(previous, left);
      if (left === 0) ready.push(previous);
    }
  }
  graph.forEachNode((id) => {
    if (result.has(id)) return;
    let longest = 0;
    for (const next of graph.outNeighbors(id)) longest = Math.max(longest, result.get(next) ?? 0);
    result.set(id, cost(id) + longest);
  });
  return result;
}
