import type { CompiledPlan } from "../compiled-plan.js";

/**
 * `writer->reader` for every graph edge between two calls, and for every writer → join → reader
 * (decision 0080): the pairs of calls the exported graph says run in that order.
 */
export function callPairs(compiled: Pick<CompiledPlan, "graph">): Set<string> {
  const graph = compiled.graph;
  const pairs = new Set<string>();
  graph.forEachEdge((_edge, _attributes, source, target) => {
    if (graph.getNodeAttribute(source, "kind") === "join") return;
    if (graph.getNodeAttribute(target, "kind") === "call") pairs.add(`${source}->${target}`);
    else
      for (const reader of graph.outNeighbors(target))
        if (reader !== source) pairs.add(`${source}->${reader}`);
  });
  return pairs;
}
