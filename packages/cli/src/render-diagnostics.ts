import { renderDiagnostics } from "@obelisk/core";
import type { ValidationResult } from "obelisk";
import type { Colors } from "./output.js";
import type { PlanFile } from "./read-plan.js";

/**
 * Renders diagnostics like a compiler (file:line:col, source line, caret, hint) with the plan text's
 * source map. Core's closing count line is left out: the verdict line (`printVerdict`) gives it.
 */
export function renderDiagnosticsText(result: ValidationResult, plan: PlanFile, colors: Colors): string {
  const sourceMap = (result.compiled as ValidationResult["compiled"] | undefined)?.sourceMap;
  const text = renderDiagnostics(result.diagnostics, {
    fileName: plan.name,
    colors,
    ...(sourceMap === undefined ? {} : { sourceMap }),
  });
  return text.slice(0, Math.max(0, text.lastIndexOf("\n")));
}
