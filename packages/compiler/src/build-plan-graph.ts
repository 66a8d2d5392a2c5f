import { DirectedGraph } from "graphology";
import type { CallEntry } from "./builder-types.js";
import type { PlanGraph } from "./compiled-plan.js";
import { addEdge } from "./wire-edges.js";

/**
 * Builds the graphology plan graph from compiled calls: one node per call (plan order), one edge per
 * (writer, reader) pair carrying every reference between them. The compiler's own passes never need it
 * (they run on the writer groups of plan-dag.ts); it is built on first access of `graph`.
 */
export function buildPlanGraph(
  entries: Iterable<CallEntry>,
  criticalPathOf: (entry: CallEntry) => number,
): PlanGraph {
  const graph: PlanGraph = new DirectedGraph();
  const list = [...entries];
  for (const entry of list) {
    graph.addNode(entry.call.id, {
      tool: entry.tool.name,
      index: entry.call.index,
      alternatives: entry.alternatives.map((targets) => targets.map((target) => target.text)),
      criticalPath: criticalPathOf(entry),
    });
  }
  // a call sharing a cyclic group is among its own writers (decision 0042): no self-loop
  for (const entry of list)
    for (const [text, links] of entry.writers)
      for (const link of links)
        if (link.callId !== entry.call.id) addEdge(graph, link.callId, entry.call.id, link, text);
  return graph;
}

/** A lazily built value, rebuilt when `version()` changed since the last build. */
export function lazyByVersion<T>(version: () => number, build: () => T): () => T {
  let built: { readonly version: number; readonly value: T } | undefined;
  return () => {
    const current = version();
    if (built === undefined || built.version !== current) built = { version: current, value: build() };
    return built.value;
  };
}
