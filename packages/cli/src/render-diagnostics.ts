import {
  type Diagnostic,
  parsePlanText,
  renderDiagnostics,
  type SourceMap,
  type SourcePosition,
} from "@obelisk/core";
import type { ValidationResult } from "obelisk";
import { type CliDiagnostic, locate } from "./cli-diagnostics.js";
import { displaySource, displayText } from "./display-text.js";
import type { Colors } from "./output.js";
import type { ParsedInput } from "./parse-input.js";
import type { PlanFile } from "./read-plan.js";

/**
 * Renders diagnostics like a compiler (file:line:col, source line, caret, hint) with the plan text's
 * source map. Core's closing count line is left out: the verdict line (`printVerdict`) gives it. A
 * diagnostic about `--input` (see `forCli`) is located in the input (`<--input>:1:9`, `input.json:3:12`),
 * with the plan's rule it breaks in its hint. Text from the plan or the input — messages, hints, pointers,
 * the source line — is shown escaped (`displayText`): a plan cannot drive the terminal through them.
 */
export function renderDiagnosticsText(
  result: Pick<ValidationResult, "diagnostics" | "compiled">,
  plan: PlanFile,
  colors: Colors,
  input?: ParsedInput,
): string {
  const sourceMap = sourceMapOf(result, plan);
  const shownPlan = shownSource(sourceMap);
  const shownInput = input === undefined ? undefined : shownSource(input.sourceMap());
  const diagnostics = result.diagnostics as readonly CliDiagnostic[];
  return diagnostics
    .map((diagnostic) =>
      diagnostic.input === undefined || input === undefined
        ? renderOne(diagnostic, plan.name, shownPlan, colors)
        : renderOne(inInput(diagnostic, plan, sourceMap), input.name, shownInput, colors),
    )
    .join("\n");
}

/**
 * The diagnostics with the line and column of their `pointer` in the plan's text — the place text output
 * prints as `plan.json:4:15` (the nearest located ancestor for a pointer the text has not, a missing key's
 * object) — for json. A diagnostic the text cannot locate (a plan that is no JSON text) is left as it is.
 */
export function withPlanPositions(
  result: Pick<ValidationResult, "diagnostics" | "compiled">,
  plan: PlanFile,
): CliDiagnostic[] {
  const sourceMap = sourceMapOf(result, plan);
  return (result.diagnostics as readonly CliDiagnostic[]).map((diagnostic) => {
    const position = locate(sourceMap, diagnostic.pointer);
    return position === undefined
      ? diagnostic
      : { ...diagnostic, line: position.line, column: position.column };
  });
}

/** A source map and the same over its text as printed (escaped: see {@link shownSourceMap}). */
interface ShownSource {
  readonly original: SourceMap;
  readonly shown: SourceMap;
}

function shownSource(map: SourceMap | undefined): ShownSource | undefined {
  return map === undefined ? undefined : { original: map, shown: shownSourceMap(map) };
}

/**
 * One diagnostic as core renders it, its text escaped and its source line shown escaped; the location keeps
 * the column in the file (core would count it in the escaped line).
 */
function renderOne(
  diagnostic: Diagnostic,
  fileName: string,
  source: ShownSource | undefined,
  colors: Colors,
): string {
  const name = displayText(fileName);
  const inFile = locate(source?.original, diagnostic.pointer);
  const text = renderDiagnostics([shownDiagnostic(diagnostic, inFile === undefined)], {
    fileName: name,
    colors,
    ...(source === undefined ? {} : { sourceMap: source.shown }),
  });
  const block = text.slice(0, Math.max(0, text.lastIndexOf("\n")));
  const shown = locate(source?.shown, diagnostic.pointer);
  if (inFile === undefined || shown === undefined || inFile.column === shown.column) return block;
  return block.replace(`${name}:${shown.line}:${shown.column}:`, `${name}:${inFile.line}:${inFile.column}:`);
}

/**
 * A diagnostic with the text it carries from the plan or the input escaped; its pointer too when it is
 * printed (`printed`: not located in the text; a located one is kept, to be found in the source map).
 */
function shownDiagnostic(diagnostic: Diagnostic, printed: boolean): Diagnostic {
  return {
    ...diagnostic,
    message: displayText(diagnostic.message),
    pointer: printed ? displayText(diagnostic.pointer) : diagnostic.pointer,
    ...(diagnostic.hint === undefined ? {} : { hint: displayText(diagnostic.hint) }),
    ...(diagnostic.related === undefined ? {} : { related: diagnostic.related.map(displayText) }),
  };
}

/**
 * A source map over its text as printed: control, bidi and separator characters escaped (`displaySource`:
 * line ends and tabs kept, so lines keep their numbers), positions moved into the escaped text so that the
 * excerpt's caret stays under the located value. Unchanged when the text has nothing to escape.
 */
function shownSourceMap(map: SourceMap): SourceMap {
  const shown = displaySource(map.text);
  if (shown.text.length === map.text.length) return map;
  const at = (offset: number): number => shown.offsets[Math.max(0, Math.min(offset, map.text.length))] ?? 0;
  const move = (position: SourcePosition): SourcePosition => {
    const offset = at(position.offset);
    const lineStart = at(position.offset - (position.column - 1));
    const end = at(position.offset + position.length);
    return { line: position.line, column: offset - lineStart + 1, offset, length: end - offset };
  };
  return {
    text: shown.text,
    positionOf: (pointer) => {
      const position = map.positionOf(pointer);
      return position === undefined ? undefined : move(position);
    },
    positionOfOffset: (offset) => move(map.positionOfOffset(offset)),
  };
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
