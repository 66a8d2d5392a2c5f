import {
  type Diagnostic,
  MAX_VALUE_DEPTH,
  parsePlanText,
  type SourceMap,
  type SourcePosition,
} from "@obelisk/core";
import { usageError } from "./usage-error.js";

/**
 * How core's plan reader reads a value that is no plan (`--input`, `--value`): no document, string or call
 * limit (a value is held to `maxValueBytes` by the engine), and the depth every stored value is held to.
 */
const VALUE_READING = {
  maxDocumentBytes: Number.POSITIVE_INFINITY,
  maxStringLength: Number.POSITIVE_INFINITY,
  maxCalls: Number.POSITIVE_INFINITY,
  maxDepth: MAX_VALUE_DEPTH,
};

/** Core's reading of a JSON value's text: its problems (JSON_SYNTAX) and its source map. */
function readValueText(text: string): { problems: Diagnostic[]; sourceMap: SourceMap | undefined } {
  const read = parsePlanText(text, { limits: VALUE_READING });
  // PLAN_SHAPE (it is no plan) does not matter; a value deeper than MAX_VALUE_DEPTH is the engine's to refuse
  const problems = read.diagnostics.filter((diagnostic) => diagnostic.code === "JSON_SYNTAX");
  return { problems, sourceMap: read.sourceMap };
}

/** The source map of a JSON value's text (line and column of a pointer), read as the plan reader reads. */
export function valueSourceMap(text: string): SourceMap | undefined {
  return readValueText(text).sourceMap;
}

/** A zero that may have been read from a literal too small for a double (`1e-400`, `0.000…001`). */
const MAYBE_UNDERFLOW = /[eE]-|\.0{300}/;

/** `"` then blanks then `:` — at least one per object member in JSON text (more when strings hold `":`). */
function membersAtMost(text: string): number {
  let count = 0;
  for (let at = text.indexOf(":"); at >= 0; at = text.indexOf(":", at + 1)) {
    let before = at - 1;
    let code = text.charCodeAt(before);
    while (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) code = text.charCodeAt(--before);
    if (code === 0x22) count++;
  }
  return count;
}

/**
 * True when `JSON.parse` may have read `text` as something other than it says, which the plan reader
 * refuses: a key repeated in one object (the text has more members than the value has keys), a number
 * that is not finite or beyond ±2^53, a zero that may have been read from a literal too small for a double.
 * The gate of core's own quick path (`quick-json-value.ts`, not exported), over the value the CLI parsed
 * already, so the text is parsed once; only when it says so is the text read again, by core's reader, to
 * say what and where (`strict-json.test.ts` checks it lets nothing core refuses through).
 */
export function mayHideSomething(text: string, value: unknown): boolean {
  let keys = 0;
  let zero = false;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "number") {
      if (!Number.isFinite(item) || Math.abs(item) > Number.MAX_SAFE_INTEGER) return true;
      if (item === 0) zero = true;
    } else if (Array.isArray(item)) {
      for (let index = 0; index < item.length; index++) stack.push(item[index]);
    } else if (typeof item === "object" && item !== null) {
      const record = item as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        keys++;
        stack.push(record[key]);
      }
    }
  }
  if (zero && MAYBE_UNDERFLOW.test(text)) return true;
  return membersAtMost(text) > keys;
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
 * Refuses JSON text that `JSON.parse` read as `value` but that the plan reader refuses (SPEC §11: a plan
 * file and a value given on the command line are read alike): a key repeated in one object (`JSON.parse`
 * keeps the last silently), an integer beyond ±2^53 it rounds, a number out of range (`1e999`, Infinity)
 * or too small for a double (`1e-400`, read as 0). `what` names the flag (`--value`, `inline --input`,
 * `--input file x.json`); the reason names the key or number and its JSON pointer (and, in a file, its
 * line and column). Throws USAGE.
 */
export function refuseWhatJsonParseHides(text: string, value: unknown, what: string, inFile = false): void {
  if (!mayHideSomething(text, value)) return;
  const { problems, sourceMap } = readValueText(text);
  if (problems.length === 0) return;
  const problem = earliest(problems, sourceMap);
  const position = sourceMap?.positionOf(problem.pointer);
  const literal =
    position === undefined ? "" : text.slice(position.offset, position.offset + position.length);
  const number = Number(literal);
  const place = where(problem.pointer, position, inFile);
  const placed = place === "" ? "" : ` ${place}`;
  if (/^-?\d/.test(literal) && !Number.isFinite(number))
    throw usageError(`${what} holds a number out of range (${number})${placed}: JSON numbers must be finite`);
  if (/^-?\d/.test(literal) && number === 0 && /[1-9]/.test(literal.split(/[eE]/)[0] ?? ""))
    throw usageError(
      `${what} holds a number too small for a double (${literal})${placed}: it would read as 0`,
      undefined,
      problem.hint,
    );
  // core's hint for a repeated key speaks of a plan
  const repeated = /occurs twice/.test(problem.message);
  const hint = repeated ? "keep one of them: JSON.parse would silently keep the last" : problem.hint;
  throw usageError(`${what}: ${problem.message}${place === "" ? "" : `, ${place}`}`, undefined, hint);
}
