import type {
  CompiledPlan,
  PlanEdgeAttributes,
  PlanJoinAttributes,
  PlanNodeAttributes,
} from "./compiled-plan.js";

/** Escapes text for a quoted Mermaid label (`"` and `#`, `<`, `>` as entities). */
function mermaidText(text: string): string {
  return text.replace(/[#"<>]/g, (char) => `#${char.charCodeAt(0)};`).replace(/\r?\n/g, " ");
}

/** Node ids made safe for Mermaid (`$` and other characters replaced) and unique. */
function safeIds(ids: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  ids.forEach((id, index) => {
    map.set(id, `n${index}_${id.replace(/[^A-Za-z0-9_]/g, "_")}`);
  });
  return map;
}

/** The label of an edge: the writer's alternatives it depends on, when conditional (never from a join). */
export function edgeLabel(
  writer: PlanNodeAttributes | PlanJoinAttributes,
  edge: PlanEdgeAttributes,
): string | undefined {
  if (!edge.conditional || writer.kind === "join") return undefined;
  return edge.alternatives
    .map((alternative) => (writer.alternatives[alternative] ?? []).join(" && "))
    .join(" || ");
}

/** The label of a node: id, tool, and its targets (fan-out joined by `&&`, alternatives by `||`). */
export function nodeLabel(id: string, node: PlanNodeAttributes): string {
  const targets = node.alternatives.map((targets) => targets.join(" && ")).join(" || ");
  return `${id} (${node.tool})\n→ ${targets}`;
}

/** References a join's label names: the rest are counted (a join may stand for thousands of them). */
const SHOWN_JOIN_REFERENCES = 3;

/**
 * The second line of a join's label, after its id: what it stands for (`all writers of †state.items`; for a
 * join of shared writers, `writers shared by †state.acc[0], …`).
 */
export function joinLabel(node: PlanJoinAttributes): string {
  const shown = node.references.slice(0, SHOWN_JOIN_REFERENCES).join(", ");
  const more = node.references.length - SHOWN_JOIN_REFERENCES;
  const what = node.shared === true ? "writers shared by" : "all writers of";
  return `${what} ${shown}${more > 0 ? `, … (+${more})` : ""}`;
}

/** Exports the plan graph as a Mermaid flowchart (joins as rounded nodes); conditional edges are dotted and labelled with the alternative. */
export function graphToMermaid(compiled: Pick<CompiledPlan, "graph">): string {
  const graph = compiled.graph;
  const ids = safeIds(graph.nodes());
  const lines = ["flowchart TD"];
  graph.forEachNode((id, node) => {
    if (node.kind === "join")
      lines.push(`  ${ids.get(id)}(["${mermaidText(id)}<br/>${mermaidText(joinLabel(node))}"])`);
    else lines.push(`  ${ids.get(id)}["${mermaidText(nodeLabel(id, node)).replace("→", "<br/>→")}"]`);
  });
  graph.forEachEdge((_edge, attributes, source, target) => {
    const label = edgeLabel(graph.getNodeAttributes(source), attributes);
    const arrow = label === undefined ? "-->" : `-. "${mermaidText(label)}" .->`;
    lines.push(`  ${ids.get(source)} ${arrow} ${ids.get(target)}`);
  });
  return `${lines.join("\n")}\n`;
}
