import { DirectedGraph } from "graphology";
import type { CallEntry } from "./builder-types.js";
import type { PlanEdgeAttributes, PlanGraph, WriterLink } from "./compiled-plan.js";
import { type SharedJoin, sharedJoins } from "./shared-writer-joins.js";
import { addEdge } from "./wire-edges.js";
import { type WriterSet, writerSets } from "./writer-sets.js";

/** The alternatives of an edge from a join (it has none): shared, never changed. */
const FROM_JOIN: readonly number[] = [];

/**
 * Builds the graphology plan graph from compiled calls: one node per call (plan order), one edge per
 * (writer, reader) pair carrying every reference between them — except where a writer list has many
 * writers and many readers: those are drawn writers → join node → readers (decision 0080), and so are the
 * writers that many different lists share (its amendment: `push`ers into `†state.acc` read as each
 * `†state.acc[i]` that has a writer of its own), so the graph stays linear in the plan (a path with 1,000
 * pushers and 1,000 readers: 2,000 edges, not a million).
 * The compiler's own passes never need it (they run on the writer groups of plan-dag.ts); it is built on
 * first access of `graph`.
 */
export function buildPlanGraph(
  entries: Iterable<CallEntry>,
  criticalPathOf: (entry: CallEntry) => number,
): PlanGraph {
  const graph: PlanGraph = new DirectedGraph();
  const list = [...entries];
  for (const entry of list) {
    graph.addNode(entry.call.id, {
      kind: "call",
      tool: entry.tool.name,
      index: entry.call.index,
      alternatives: entry.alternatives.map((targets) => targets.map((target) => target.text)),
      criticalPath: criticalPathOf(entry),
    });
  }
  const sets = writerSets(list, criticalPathOf);
  const references = new Map<WriterSet, readonly string[]>();
  for (const set of new Set(sets.values()))
    if (set.join !== undefined) {
      const texts = [...set.texts];
      references.set(set, texts);
      graph.addNode(set.join, { kind: "join", references: texts, criticalPath: set.criticalPath });
    }
  const shared = sharedJoins(list, sets, references.size);
  for (const parts of shared.values())
    for (const join of parts.joins)
      if (!graph.hasNode(join.id))
        graph.addNode(join.id, {
          kind: "join",
          references: join.texts,
          criticalPath: join.criticalPath,
          shared: true,
        });
  const wired = new Set<WriterSet | SharedJoin>();
  for (const entry of list)
    for (const [text, links] of entry.writers) {
      const set = sets.get(links);
      const parts = set === undefined ? undefined : shared.get(set);
      if (parts !== undefined) {
        for (const join of parts.joins) {
          if (!wired.has(join)) {
            wired.add(join);
            addWriterEdges(graph, join.id, join.links, join.texts);
          }
          addJoinEdge(graph, join.id, entry.call.id, text);
        }
        addPairEdges(graph, parts.rest, entry.call.id, text);
      } else if (set?.join === undefined) addPairEdges(graph, links, entry.call.id, text);
      else {
        if (!wired.has(set)) {
          wired.add(set);
          addWriterEdges(graph, set.join, set.links, references.get(set) ?? []);
        }
        addJoinEdge(graph, set.join, entry.call.id, text);
      }
    }
  return graph;
}

/** An edge (or the reference to it) from each writer in `links` to `reader`. */
function addPairEdges(graph: PlanGraph, links: readonly WriterLink[], reader: string, text: string): void {
  // a call sharing a cyclic group is among its own writers (decision 0042): no self-loop
  for (const link of links) if (link.callId !== reader) addEdge(graph, link.callId, reader, link, text);
}

/** The edges writer → join, each with the writer's alternatives, carrying the join's references. */
function addWriterEdges(
  graph: PlanGraph,
  join: string,
  links: readonly WriterLink[],
  references: readonly string[],
): void {
  for (const link of links)
    graph.addEdge(link.callId, join, {
      alternatives: link.alternatives,
      conditional: link.conditional,
      references,
    });
}

/** Adds the edge join → reader, or the reference to it. */
function addJoinEdge(graph: PlanGraph, join: string, reader: string, text: string): void {
  if (!graph.hasEdge(join, reader)) {
    const attributes: PlanEdgeAttributes = {
      alternatives: FROM_JOIN,
      conditional: false,
      references: [text],
    };
    graph.addEdge(join, reader, attributes);
    return;
  }
  const current = graph.getEdgeAttributes(join, reader);
  if (!current.references.includes(text))
    graph.setEdgeAttribute(join, reader, "references", [...current.references, text]);
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
