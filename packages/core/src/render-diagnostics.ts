import type { Diagnostic, SourcePosition } from "./diagnostic.js";
import { parsePointer, pointerFromPath } from "./json-pointer.js";
import type { SourceMap } from "./source-map.js";

/** Text styles the renderer applies; inject real colours (e.g. picocolors) when printing to a TTY. */
export interface Colors {
  /** Errors and their carets. */
  readonly red: (text: string) => string;
  /** Warnings and their carets. */
  readonly yellow: (text: string) => string;
  /** Hints. */
  readonly cyan: (text: string) => string;
  /** The gutter and secondary text. */
  readonly dim: (text: string) => string;
  /** Locations and the summary. */
  readonly bold: (text: string) => string;
}

const identity = (text: string): string => text;

/** No styling (the default). */
export const NO_COLORS: Colors = {
  red: identity,
  yellow: identity,
  cyan: identity,
  dim: identity,
  bold: identity,
};

/** Options of {@link renderDiagnostics}. */
export interface RenderDiagnosticsOptions {
  /** The name printed before each location (default `<plan>`). */
  readonly fileName?: string;
  /** Locates pointers in the submitted text; without it, locations are printed as pointers. */
  readonly sourceMap?: SourceMap;
  /** Styles to apply (default: none). */
  readonly colors?: Colors;
}

/** Source lines longer than this are shown as a window around the located column. */
const MAX_SHOWN_LINE = 120;

/** The position of a pointer, or of its nearest located ancestor (e.g. a missing key's object). */
function locate(sourceMap: SourceMap, pointer: string): SourcePosition | undefined {
  const segments = parsePointer(pointer);
  for (let length = segments.length; length >= 0; length--) {
    const position = sourceMap.positionOf(pointerFromPath(segments.slice(0, length)));
    if (position !== undefined) return position;
  }
  return undefined;
}

/** The source line of a position and a caret line under the located value (windowed when long). */
function excerpt(
  text: string,
  position: SourcePosition,
  colors: Colors,
  paint: (s: string) => string,
): string[] {
  const lineStart = position.offset - (position.column - 1);
  let lineEnd = lineStart;
  while (lineEnd < text.length && text[lineEnd] !== "\n" && text[lineEnd] !== "\r") lineEnd++;
  const start = lineEnd - lineStart > MAX_SHOWN_LINE ? Math.max(lineStart, position.offset - 40) : lineStart;
  const end = Math.min(lineEnd, start + MAX_SHOWN_LINE);
  const before = start > lineStart ? "…" : "";
  const shown = `${before}${text.slice(start, end)}${end < lineEnd ? "…" : ""}`;
  const lead = `${before}${text.slice(start, position.offset)}`.replace(/[^\t]/g, " ");
  const span = Math.max(1, Math.min(position.length, end - position.offset));
  const gutter = String(position.line);
  return [
    `${colors.dim(`${gutter} |`)} ${shown}`,
    `${colors.dim(`${" ".repeat(gutter.length)} |`)} ${lead}${paint(`^${"~".repeat(span - 1)}`)}`,
  ];
}

/** Renders one diagnostic as lines. */
function renderOne(
  diagnostic: Diagnostic,
  fileName: string,
  sourceMap: SourceMap | undefined,
  colors: Colors,
) {
  const paint = diagnostic.severity === "error" ? colors.red : colors.yellow;
  const label = `${paint(colors.bold(diagnostic.severity))} ${colors.bold(diagnostic.code)}: ${diagnostic.message}`;
  const position = sourceMap === undefined ? undefined : locate(sourceMap, diagnostic.pointer);
  const lines: string[] = [];
  if (sourceMap === undefined || position === undefined) {
    const at = diagnostic.pointer === "" ? '""' : diagnostic.pointer;
    lines.push(`${colors.bold(`${fileName}:`)} ${label} ${colors.dim(`(at ${at})`)}`);
  } else {
    lines.push(`${colors.bold(`${fileName}:${position.line}:${position.column}:`)} ${label}`);
    lines.push(...excerpt(sourceMap.text, position, colors, paint).map((line) => `  ${line}`));
  }
  if (diagnostic.related !== undefined && diagnostic.related.length > 0) {
    lines.push(`  ${colors.dim(`related: ${diagnostic.related.join(", ")}`)}`);
  }
  if (diagnostic.hint !== undefined) lines.push(`  ${colors.cyan(`hint: ${diagnostic.hint}`)}`);
  return lines;
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? "" : "s"}`;

/**
 * Renders diagnostics as compiler-style text (SPEC §6): `file:line:col: error CODE: message`, the source
 * line with a caret under the located value, `hint: …`; without a source map, `file: error CODE: message
 * (at /pointer)`. Ends with a summary line such as `2 errors, 1 warning`.
 */
export function renderDiagnostics(
  diagnostics: readonly Diagnostic[],
  options: RenderDiagnosticsOptions = {},
): string {
  const colors = options.colors ?? NO_COLORS;
  const fileName = options.fileName ?? "<plan>";
  const blocks = diagnostics.map((d) => renderOne(d, fileName, options.sourceMap, colors).join("\n"));
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const summary = colors.bold(
    `${plural(errors, "error")}, ${plural(diagnostics.length - errors, "warning")}`,
  );
  return [...blocks, summary].join("\n");
}
