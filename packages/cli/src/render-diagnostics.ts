import type { Diagnostic, SourcePosition } from "@obelisk/core";
import type { ValidationResult } from "obelisk";
import type { Colors } from "./output.js";
import type { PlanFile } from "./read-plan.js";

/** Finds the source position of a JSON Pointer in the plan text (undefined when unknown). */
export type Locate = (pointer: string) => SourcePosition | undefined;

/** The locator of a validation result's source map (when the plan was given as text). */
export function locator(result: ValidationResult): Locate {
  const map = (result.compiled as { sourceMap?: unknown } | undefined)?.sourceMap;
  if (map instanceof Map) return (pointer) => map.get(pointer) as SourcePosition | undefined;
  if (typeof map === "function") return (pointer) => (map as Locate)(pointer);
  if (typeof map === "object" && map !== null && "positionOf" in map) {
    return (pointer) => (map as { positionOf: Locate }).positionOf(pointer);
  }
  return () => undefined;
}

/** Renders diagnostics like a compiler: `file:line:col: error CODE message`, the source line, a caret, the hint. */
export function renderDiagnosticsText(result: ValidationResult, plan: PlanFile, c: Colors): string {
  const locate = locator(result);
  const lines = plan.text.split(/\r?\n/);
  return result.diagnostics.map((d) => renderOne(d, plan.name, lines, locate, c)).join("\n");
}

function renderOne(d: Diagnostic, file: string, lines: readonly string[], locate: Locate, c: Colors): string {
  const position = positionOf(d, locate);
  const where = position === undefined ? file : `${file}:${position.line}:${position.column}`;
  const severity = d.severity === "error" ? c.red(c.bold("error")) : c.yellow(c.bold("warning"));
  const out = [`${c.bold(where)}: ${severity} ${c.dim(d.code)} ${d.message}`];
  if (position !== undefined) {
    const source = lines[position.line - 1];
    if (source !== undefined) {
      const gutter = String(position.line).padStart(4);
      const width = Math.max(1, Math.min(position.length, source.length - position.column + 1));
      out.push(`${c.dim(`${gutter} |`)} ${source}`);
      out.push(`${c.dim("     |")} ${" ".repeat(position.column - 1)}${c.red("^".repeat(width))}`);
    }
  }
  out.push(`${c.dim("     = at")} ${d.pointer === "" ? "(document)" : d.pointer}`);
  if (d.hint !== undefined) out.push(`${c.dim("     = hint:")} ${c.cyan(d.hint)}`);
  return `${out.join("\n")}\n`;
}

function positionOf(d: Diagnostic, locate: Locate): SourcePosition | undefined {
  const own = (d as { position?: SourcePosition }).position;
  if (own !== undefined) return own;
  let pointer = d.pointer;
  for (;;) {
    const found = locate(pointer);
    if (found !== undefined || pointer === "") return found;
    pointer = pointer.slice(0, pointer.lastIndexOf("/"));
  }
}
