import type { ValidationResult } from "obelisk";

/** One node of the plan graph as printed by `validate --format json`. */
export interface PlanGraphNode {
  /** Call id. */
  readonly id: string;
  /** Tool name. */
  readonly tool: string;
  /** Canonical `_outputPath`, when the call has one. */
  readonly outputPath?: string;
}

/** The plan graph of `validate --format json` (SPEC §10): nodes, and edges as `[from, to]` (writer → reader). */
export interface PlanGraphJson {
  /** Calls in plan order. */
  readonly nodes: readonly PlanGraphNode[];
  /** Dependency edges. */
  readonly edges: readonly (readonly [string, string])[];
}

/** Extracts the plan graph of a validation result. */
export function planGraphJson(compiled: ValidationResult["compiled"]): PlanGraphJson {
  const nodes = compiled.calls.map((call): PlanGraphNode => {
    const outputPath = typeof call.raw._outputPath === "string" ? call.raw._outputPath : undefined;
    return outputPath === undefined
      ? { id: call.id, tool: call.tool }
      : { id: call.id, tool: call.tool, outputPath };
  });
  const edges: (readonly [string, string])[] = [];
  compiled.graph.forEachEdge((_key, _attributes, source, target) => {
    edges.push([source, target]);
  });
  return { nodes, edges };
}
