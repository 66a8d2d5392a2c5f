import { type Diagnostic, parsePlanText, renderDiagnostics, type SourceMap } from "@obelisk/core";
import type { ValidationResult } from "obelisk";
import { type CliDiagnostic, locate } from "./cli-diagnostics.js";
import type { Colors } from "./output.js";
import type { ParsedInput } from "./parse-input.js";
import type { PlanFile } from "./read-plan.js";

/**
 * Renders diagnostics like a compiler (file:line:col, source line, caret, hint) with the plan text's
 * source map. Core's closing count line is left out: the verdict line (`printVerdict`) gives it. A
 * diagnostic about `--input` (see `forCli`) is located in the input (`<--input>:1:9`, `input.json:3:12`),
 * with the plan's rule it breaks in its hint.
 */
export function renderDiagnosticsText(
  result: Pick<ValidationResult, "diagnostics" | "compiled">,
  plan: PlanFile,
  colors: Colors,
  input?: ParsedInput,
): string {
  const sourceMap = sourceMapOf(result, plan);
  const render = (diagnostics: readonly Diagnostic[], fileName: string, map: SourceMap | undefined) => {
    const text = renderDiagnostics(diagnostics, {
      fileName,
      colors,
      ...(map === undefined ? {} : { sourceMap: map }),
    });
    return text.slice(0, Math.max(0, text.lastIndexOf("\n")));
  };
  const diagnostics = result.diagnostics as readonly CliDiagnostic[];
  if (input === undefined || !diagnostics.some((diagnostic) => diagnostic.input !== undefined))
    return render(diagnostics, plan.name, sourceMap);
  return diagnostics
    .map((diagnostic) =>
      diagnostic.input === undefined
        ? render([diagnostic], plan.name, sourceMap)
        : render([inInput(diagnostic, plan, sourceMap)], input.name, input.sourceMap()),
    )
    .join("\n");
}

/** A diagnostic about the input, pointing into it; its hint names the plan's rule it breaks, if any. */
function inInput(diagnostic: CliDiagnostic, plan: PlanFile, sourceMap: SourceMap | undefined): Diagnostic {
  const { input, ...rest } = diagnostic;
  if (input === undefined || diagnostic.pointer === "") return { ...rest, pointer: input?.pointer ?? "" };
  const position = locate(sourceMap, diagnostic.pointer);
  const where = position === undefined ? plan.name : `${plan.name}:${position.line}:${position.column}`;
  const rule = `the input is wrong, not the plan: it breaks ${where} (${diagnostic.pointer})`;
  return { ...rest, pointer: input.pointer, hint: rest.hint === undefined ? rule : `${rest.hint}; ${rule}` };
}

/**
 * The compiled plan's source map, or one made from the plan's text: a plan refused by `run` or `resume`
 * (PLAN_INVALID) carries its diagnostics without the compiled plan (read with the limits it was checked
 * against: `--limits`).
 */
function sourceMapOf(result: Pick<ValidationResult, "compiled">, plan: PlanFile): SourceMap | undefined {
  const compiled = (result.compiled as ValidationResult["compiled"] | undefined)?.sourceMap;
  return (
    compiled ?? parsePlanText(plan.text, plan.limits === undefined ? {} : { limits: plan.limits }).sourceMap
  );
}
