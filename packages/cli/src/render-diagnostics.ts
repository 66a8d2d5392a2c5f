import { renderDiagnostics } from "@obelisk/core";
import type { ValidationResult } from "obelisk";
import type { Colors } from "./output.js";
import type { PlanFile } from "./read-plan.js";

/** Renders diagnostics like a compiler (file:line:col, source line, caret, hint) with the plan text's source map. */
export function renderDiagnosticsText(result: ValidationResult, plan: PlanFile, colors: Colors): string {
  const sourceMap = (result.compiled as ValidationResult["compiled"] | undefined)?.sourceMap;
  return renderDiagnostics(result.diagnostics, {
    fileName: plan.name,
    colors,
    ...(sourceMap === undefined ? {} : { sourceMap }),
  });
}
