import { parsePlanText, renderDiagnostics, type SourceMap } from "@obelisk/core";
import type { ValidationResult } from "obelisk";
import type { Colors } from "./output.js";
import type { PlanFile } from "./read-plan.js";

/**
 * Renders diagnostics like a compiler (file:line:col, source line, caret, hint) with the plan text's
 * source map. Core's closing count line is left out: the verdict line (`printVerdict`) gives it.
 */
export function renderDiagnosticsText(result: ValidationResult, plan: PlanFile, colors: Colors): string {
  const sourceMap = sourceMapOf(result, plan);
  const text = renderDiagnostics(result.diagnostics, {
    fileName: plan.name,
    colors,
    ...(sourceMap === undefined ? {} : { sourceMap }),
  });
  return text.slice(0, Math.max(0, text.lastIndexOf("\n")));
}

/**
 * The compiled plan's source map, or one made from the plan's text: a plan refused by `run` or `resume`
 * (PLAN_INVALID) carries its diagnostics without the compiled plan.
 */
function sourceMapOf(result: ValidationResult, plan: PlanFile): SourceMap | undefined {
  const compiled = (result.compiled as ValidationResult["compiled"] | undefined)?.sourceMap;
  return compiled ?? parsePlanText(plan.text).sourceMap;
}
