import type { CompiledPlan } from "./compiled-plan.js";
import { edgeLabel, joinLabel, nodeLabel } from "./graph-to-mermaid.js";

/** A DOT double-quoted string (backslashes, quotes and newlines escaped). */
function dotString(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\r?\n/g, "\\n")}"`;
}

/** Exports the plan graph as Graphviz DOT (joins as ellipses); conditional edges are dashed and labelled with the alternative. */
export function graphToDot(compiled: Pick<CompiledPlan, "graph">): string {
  const graph = compiled.graph;
  const lines = ["digraph plan {", "  rankdir=TB;", "  node [shape=box];"];
  graph.forEachNode((id, node) => {
    if (node.kind === "join")
      lines.push(`  ${dotString(id)} [shape=ellipse, label=${dotString(`${id}\n${joinLabel(node)}`)}];`);
    else lines.push(`  ${dotString(id)} [label=${dotString(nodeLabel(id, node))}];`);
  });
  graph.forEachEdge((_edge, attributes, source, target) => {
    const label = edgeLabel(graph.getNodeAttributes(source), attributes);
    const style = label === undefined ? "" : ` [style=dashed, label=${dotString(label)}]`;
    lines.push(`  ${dotString(source)} -> ${dotString(target)}${style};`);
  });
  lines.push("}");
  return `${lines.join("\n")}\n`;
}
