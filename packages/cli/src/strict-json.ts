import {
  type Diagnostic,
  type JsonTextResult,
  MAX_VALUE_DEPTH,
  parseJsonText,
  type SourceMap,
  type SourcePosition,
} from "@obelisk/core";
import { usageError } from "./usage-error.js";

/**
 * How a value given on the command line (`--input`, `--value`) is read: as strictly as a plan (core's
 * `parseJsonText`), with no document or string limit (a value is held to `maxValueBytes` by the engine) and
 * the depth every stored value is held to.
 */
const VALUE_READING = {
  maxDocumentBytes: Number.POSITIVE_INFINITY,
  maxStringLength: Number.POSITIVE_INFINITY,
  maxDepth: MAX_VALUE_DEPTH,
};

/** The refusal of a value's text, as core's reader answers it. */
export type RefusedJson = Extract<JsonTextResult, { readonly ok: false }>;

/**
 * Reads JSON text given on the command line with core's reader — `JSON.parse` once, its syntax tree only
 * when something needs the tree's checks or a problem is located — so a value is read as strictly as a
 * plan file (SPEC §11): the value and its source map, or the refusal.
 */
export function readJsonValue(text: string): JsonTextResult {
  return parseJsonText(text, { limits: VALUE_READING });
}

/** Where a problem is: at its JSON pointer (none for the value itself) and, in a file, line and column. */
function where(pointer: string, position: SourcePosition | undefined, inFile: boolean): string {
  const at = pointer === "" ? [] : [`at ${pointer}`];
  if (inFile && position !== undefined) at.push(`(line ${position.line}, column ${position.column})`);
  return at.join(" ");
}

/** The earliest problem in the text (core reports them depth first, from the end of each object). */
function earliest(problems: readonly Diagnostic[], sourceMap: SourceMap | undefined): Diagnostic {
  const offset = (problem: Diagnostic) => sourceMap?.positionOf(problem.pointer)?.offset ?? 0;
  return [...problems].sort((a, b) => offset(a) - offset(b))[0] as Diagnostic;
}

/**
 * The USAGE error for a value's text core's reader refused: text that is no JSON (`malformed JSON in
 * <what>: …`, with line and column), a key repeated in one object (`JSON.parse` would keep the last
 * silently), an integer beyond ±2^53 it would round, a number out of range (`1e999`, Infinity) or too
 * small for a double (`1e-400`, read as 0), a value nested deeper than a stored value may be (its depth
 * alone: the pointer would be a thousand segments). `what` names
 * the flag (`--value`, `inline --input`, `--input file x.json`); the reason names the key or number and its
 * JSON pointer (and, in a file, its line and column).
 */
export function refusedJsonError(text: string, refused: RefusedJson, what: string, inFile = false): Error {
  const { diagnostics, sourceMap } = refused;
  const problem = earliest(diagnostics, sourceMap);
  // core's hint names the cause where it is recognisable (single quotes, a trailing comma, text cut short)
  if (refused.malformed)
    return usageError(`malformed JSON in ${what}: ${problem.message}`, undefined, problem.hint);
  const position = sourceMap?.positionOf(problem.pointer);
  const literal =
    position === undefined ? "" : text.slice(position.offset, position.offset + position.length);
  const number = Number(literal);
  // the only limit a value is read under: its depth (the pointer, a thousand segments, would say nothing)
  if (problem.code === "PLAN_LIMIT") {
    const at = inFile && position !== undefined ? ` (line ${position.line}, column ${position.column})` : "";
    return usageError(
      `${what} is nested deeper than ${MAX_VALUE_DEPTH} levels, the most a stored value may have${at}`,
      undefined,
      "flatten the structure",
    );
  }
  const place = where(problem.pointer, position, inFile);
  const placed = place === "" ? "" : ` ${place}`;
  if (/^-?\d/.test(literal) && !Number.isFinite(number))
    return usageError(
      `${what} holds a number out of range (${number})${placed}: JSON numbers must be finite`,
    );
  if (/^-?\d/.test(literal) && number === 0 && /[1-9]/.test(literal.split(/[eE]/)[0] ?? ""))
    return usageError(
      `${what} holds a number too small for a double (${literal})${placed}: it would read as 0`,
      undefined,
      problem.hint,
    );
  // core's hints for a value (no subject "plan") do not speak of a plan: a repeated key's is
  // "keep one of them: JSON.parse would silently keep the last"
  return usageError(
    `${what}: ${problem.message}${place === "" ? "" : `, ${place}`}`,
    undefined,
    problem.hint,
  );
}
