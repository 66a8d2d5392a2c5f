import type { CompiledPlan } from "../compiled-plan.js";

/** `length` items made by `item` from their index. */
export const range = <T>(length: number, item: (index: number) => T): T[] =>
  Array.from({ length }, (_, i) => item(i));

/** The pairs the compiled calls' writer lists name (what the scheduler waits for). */
export function writerPairs(compiled: Pick<CompiledPlan, "calls">): Set<string> {
  const pairs = new Set<string>();
  for (const call of compiled.calls)
    for (const links of call.writers.values())
      for (const link of links) if (link.callId !== call.id) pairs.add(`${link.callId}->${call.id}`);
  return pairs;
}

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
