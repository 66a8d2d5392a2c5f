import { graphToJson } from "@obelisk/compiler";
import { plural } from "@obelisk/core";
import type { ValidationResult } from "obelisk";
import type { Output } from "./output.js";

// Loaded by the commands that need it: importing the compiler (ajv, zod, graphology) at start-up would
// slow every command, `--help` and `state` included.

/** The json document of `validate` (SPEC §6 shape plus the graph). */
export function validationJson(result: ValidationResult): Record<string, unknown> {
  return {
    ok: result.ok,
    planHash: result.planHash,
    diagnostics: result.diagnostics,
    graph: graphToJson(result.compiled),
  };
}

/** Prints the plan hash and a graph summary: each call with its tool, what it waits for and where it writes. */
export function printGraphSummary(output: Output, result: ValidationResult): void {
  const c = output.colors;
  const graph = graphToJson(result.compiled);
  // A document that is not JSON has no plan to approve: its hash only names the text that was read.
  const notJson = result.diagnostics.some((diagnostic) => diagnostic.code === "JSON_SYNTAX");
  output.line(
    `${c.dim("plan hash")} ${result.planHash}${notJson ? c.dim(" (of the text: it is not JSON, nothing to approve)") : ""}`,
  );
  const roots = graph.nodes.filter((node) => !graph.edges.some(([, to]) => to === node.id)).length;
  output.line(
    `${c.dim("graph")}     ${plural(graph.nodes.length, "call")}, ${plural(graph.edges.length, "dependency", "dependencies")}, ${roots} can start at once`,
  );
  for (const node of graph.nodes) {
    const after = graph.edges.filter(([, to]) => to === node.id).map(([from]) => from);
    const waits = after.length > 0 ? c.dim(` after ${after.join(", ")}`) : "";
    const writes = ` → ${node.targets.map((targets) => targets.join(" && ")).join(" || ")}`;
    output.line(`  ${c.bold(node.id)} ${c.dim(`(${node.tool})`)}${waits}${writes}`);
  }
}
