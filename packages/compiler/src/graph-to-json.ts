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

/** The plan graph as JSON (SPEC §10 `validate --format json`). */
export interface GraphJson {
  readonly nodes: readonly GraphJsonNode[];
  /** `[writer, reader]` pairs. */
  readonly edges: readonly (readonly [string, string])[];
}

/** Exports the plan graph as `{ nodes, edges }`, nodes in plan order. */
export function graphToJson(compiled: Pick<CompiledPlan, "graph">): GraphJson {
  const graph = compiled.graph;
  const nodes = graph
    .mapNodes((id, attributes) => ({
      id,
      tool: attributes.tool,
      criticalPath: attributes.criticalPath,
      targets: attributes.alternatives,
      index: attributes.index,
    }))
    .sort((a, b) => a.index - b.index)
    .map(({ index: _index, ...node }) => node);
  const edges = graph.mapEdges((_edge, _attributes, source, target) => [source, target] as const);
  return { nodes, edges };
}
