import type { CompiledPlan } from "./compiled-plan.js";

/** One node of the exported graph. */
export interface GraphJsonNode {
  /** Call id. */
  readonly id: string;
  /** Tool name. */
  readonly tool: string;
  /** Remaining critical path (by cost), this call included. */
  readonly criticalPath: number;
  /** Target texts per alternative (`[["†calls.<id>"]]` for a call without `_outputPath`). */
  readonly targets: readonly (readonly string[])[];
}

/**
 * A join of the exported graph (decision 0080): where a path has many writers and many readers, each writer
 * has an edge to the join and the join one to each reader, instead of an edge per (writer, reader) pair.
 */
export interface GraphJsonJoin {
  /** `join#<n>`, numbered in plan order of first read (a call id never holds `#`). */
  readonly id: string;
  /** Reference texts read through it: each has exactly the join's writers (unless `shared`). */
  readonly references: readonly string[];
  /** The largest critical path among its readers (a join costs nothing). */
  readonly criticalPath: number;
  /** Present on a join of writers that different lists share: its references may read other writers too. */
  readonly shared?: true;
}

/** The plan graph as JSON (SPEC §10 `validate --format json`). */
export interface GraphJson {
  readonly nodes: readonly GraphJsonNode[];
  /** Join nodes; absent when there are none (most plans). */
  readonly joins?: readonly GraphJsonJoin[];
  /** `[writer, reader]` pairs; a join is the reader of its writers' edges and the writer of its readers'. */
  readonly edges: readonly (readonly [string, string])[];
}

/** Exports the plan graph as `{ nodes, joins?, edges }`, nodes in plan order, joins by number. */
export function graphToJson(compiled: Pick<CompiledPlan, "graph">): GraphJson {
  const graph = compiled.graph;
  const calls: (GraphJsonNode & { readonly index: number })[] = [];
  const joins: GraphJsonJoin[] = [];
  graph.forEachNode((id, node) => {
    if (node.kind === "join") {
      const { references, criticalPath } = node;
      joins.push(
        node.shared === true
          ? { id, references, criticalPath, shared: true }
          : { id, references, criticalPath },
      );
    } else
      calls.push({
        id,
        tool: node.tool,
        criticalPath: node.criticalPath,
        targets: node.alternatives,
        index: node.index,
      });
  });
  const nodes = calls.sort((a, b) => a.index - b.index).map(({ index: _index, ...node }) => node);
  const edges = graph.mapEdges((_edge, _attributes, source, target) => [source, target] as const);
  return joins.length === 0 ? { nodes, edges } : { nodes, joins, edges };
}
