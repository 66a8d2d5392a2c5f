import { graphToJson } from "@obelisk/compiler";
import type { Diagnostic } from "@obelisk/core";
import { plural } from "@obelisk/core";
import type { ValidationResult } from "obelisk";
import type { Output } from "./output.js";
import type { PlanFile } from "./read-plan.js";
import { renderDiagnosticsText } from "./render-diagnostics.js";

/** The json document of `validate` (SPEC §6 shape plus the graph). */
export function validationJson(result: ValidationResult): Record<string, unknown> {
  return {
    ok: result.ok,
    planHash: result.planHash,
    diagnostics: result.diagnostics,
    graph: graphToJson(result.compiled),
  };
}

/** Prints the diagnostics of a plan like a compiler (file:line:col, source line, caret, hint). */
export function printDiagnostics(output: Output, result: ValidationResult, plan: PlanFile): void {
  if (result.diagnostics.length === 0) return;
  output.line(renderDiagnosticsText(result, plan, output.colors).trimEnd());
  output.line();
}

/** Counts errors and warnings. */
export function tally(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number } {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  return { errors, warnings: diagnostics.length - errors };
}

/** Prints the verdict line of a validation: valid / N errors, M warnings. */
export function printVerdict(output: Output, result: ValidationResult): void {
  const c = output.colors;
  const { errors, warnings } = tally(result.diagnostics);
  const w = plural(warnings, "warning");
  if (result.ok)
    output.line(`${c.green(c.bold("✓ plan is valid"))}${warnings > 0 ? c.yellow(` (${w})`) : ""}`);
  else output.line(c.red(c.bold(`✗ plan is invalid: ${plural(errors, "error")}, ${w}`)));
}

/** Prints the plan hash and a graph summary: each call with its tool, what it waits for and where it writes. */
export function printGraphSummary(output: Output, result: ValidationResult): void {
  const c = output.colors;
  const graph = graphToJson(result.compiled);
  output.line(`${c.dim("plan hash")} ${result.planHash}`);
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
