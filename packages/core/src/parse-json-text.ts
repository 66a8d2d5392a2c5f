import type { Node, ParseError } from "jsonc-parser";
import { parseTree, printParseErrorCode } from "jsonc-parser";
import type { Diagnostic } from "./diagnostic.js";
import type { JsonValue } from "./json-value.js";
import type { LimitOverrides, Limits } from "./limits.js";
import { DEFAULT_LIMITS, resolveLimits } from "./limits.js";
import { planDiagnostic } from "./plan-diagnostic.js";
import { depthLimitDiagnostic } from "./plan-limit-diagnostics.js";
import { lazySourceMap, quickJsonValue } from "./quick-json-value.js";
import { scanNestingDepth } from "./scan-nesting-depth.js";
import type { SourceMap } from "./source-map.js";
import { createSourceMap } from "./source-map.js";
import { utf8LengthExceeds } from "./utf8-length.js";
import { valueFromTree } from "./value-from-tree.js";

/** Options of {@link parseJsonText}. */
export interface ParseJsonTextOptions {
  /**
   * Limits to enforce: `maxDocumentBytes` (UTF-8 bytes of the text), `maxDepth` (nesting) and
   * `maxStringLength` (each string and key); defaults {@link DEFAULT_LIMITS}. Pass `Infinity` to lift one.
   */
  readonly limits?: LimitOverrides;
  /**
   * What the text is, as a hint names it: `"request body"` → `the request body must be strict JSON (no
   * comments)`. Default `"text"`. Only `"plan"` gives the plan reader's hints (`parsePlanText`'s: a key
   * repeated in one object is `keep one of them: a plan must say each thing once …`); any other subject gets
   * `keep one of them: JSON.parse would silently keep the last`. Codes, messages and pointers do not change.
   */
  readonly subject?: string;
}

/**
 * A JSON value read from text (`ok`, with the source map that locates its pointers), or the problems that
 * refused it: JSON_SYNTAX (not JSON; a key repeated in one object; a number out of range, too small for a
 * double or beyond ±2^53) and PLAN_LIMIT (size, depth, string length), each at its JSON Pointer.
 */
export type JsonTextResult =
  | { readonly ok: true; readonly value: JsonValue; readonly sourceMap: SourceMap }
  | {
      readonly ok: false;
      /**
       * True when the text is not JSON at all (its one diagnostic: JSON_SYNTAX at `""`, located where the
       * syntax breaks); false when it is JSON refused for what `JSON.parse` would misread, or over a limit.
       */
      readonly malformed: boolean;
      readonly diagnostics: readonly Diagnostic[];
      /** Locates the diagnostics' pointers (absent only when the text is over the size limit). */
      readonly sourceMap?: SourceMap;
    };

/**
 * Up to this `maxDepth`, a text is read by `JSON.parse` first. Deeper documents (a raised limit) take the
 * tree reader, whose stack overflow is the PLAN_LIMIT that keeps them from every recursive step after it.
 */
const QUICK_MAX_DEPTH = 1000;

/** Names a jsonc-parser error in words (`InvalidSymbol` → `invalid symbol`). */
function describeParseError(error: ParseError): string {
  return printParseErrorCode(error.error)
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
}

/** Parses with jsonc-parser in strict JSON mode; returns the tree or the first syntax error. */
function strictParse(text: string): { root?: Node; error?: ParseError; overflow?: true } {
  const errors: ParseError[] = [];
  try {
    const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
    const error = errors[0];
    if (error !== undefined) return { error };
    return root === undefined ? { error: { error: 4, offset: 0, length: 0 } } : { root };
  } catch {
    // The parser recursing past the stack: depth is pre-scanned, so only with a huge maxDepth.
    return { overflow: true };
  }
}

/** What the plan readers name the text they read (and the hints they give: see {@link neutralHints}). */
const PLAN = "plan";

/** The one JSON_SYNTAX diagnostic for text that is not JSON, located at `offset`. */
function syntaxError(
  text: string,
  { offset, length }: { readonly offset: number; readonly length: number },
  what: string,
  subject: string,
): JsonTextResult {
  const span = { offset, length: Math.max(1, length) };
  const sourceMap = createSourceMap(text, undefined, new Map([["", span]]));
  const at = sourceMap.positionOfOffset(span.offset);
  const message = `invalid JSON at line ${at.line}, column ${at.column}: ${what}`;
  const hint = `the ${subject} must be strict JSON (no comments)`;
  return {
    ok: false,
    malformed: true,
    sourceMap,
    diagnostics: [planDiagnostic("JSON_SYNTAX", message, "", hint)],
  };
}

/** The hint of a key repeated in one object, for text that is not a plan. */
const REPEATED_KEY_HINT = "keep one of them: JSON.parse would silently keep the last";

/**
 * The tree's diagnostics with hints that do not speak of a plan, for text that is not one: the repeated
 * key's (the tree's hint says "a plan must say each thing once"). The others' hints name no plan.
 */
function neutralHints(diagnostics: readonly Diagnostic[], subject: string): readonly Diagnostic[] {
  if (subject === PLAN) return diagnostics;
  return diagnostics.map((diagnostic) =>
    diagnostic.code === "JSON_SYNTAX" && / occurs twice in one object$/.test(diagnostic.message)
      ? { ...diagnostic, hint: REPEATED_KEY_HINT }
      : diagnostic,
  );
}

/**
 * Checks syntax of a document too deep for the recursive tree parser: V8's `JSON.parse` is not
 * recursive. Returns the error offset (0 when the engine does not say), or undefined when the text is JSON.
 */
function nonRecursiveSyntaxErrorOffset(text: string): number | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const position = /position (\d+)/.exec(error instanceof Error ? error.message : "");
    return position?.[1] === undefined ? 0 : Math.min(Number(position[1]), text.length);
  }
}

/**
 * Reads JSON `text` (no byte order mark) under resolved `limits`: size, then depth (scanned on the text),
 * then `JSON.parse` when nothing in the text needs the tree's checks (`quickJsonValue`), else the tree,
 * whose problems are located. Never throws. What {@link parseJsonText} and `parsePlanText` share. `subject` names
 * the text in the hints (default "plan": the plan readers' hints; see {@link neutralHints}).
 */
export function readJsonText(text: string, limits: Limits, subject: string = PLAN): JsonTextResult {
  if (utf8LengthExceeds(text, limits.maxDocumentBytes)) {
    const message = `the document is larger than the limit of ${limits.maxDocumentBytes} bytes`;
    const diagnostics = [planDiagnostic("PLAN_LIMIT", message, "", "raise maxDocumentBytes")];
    return { ok: false, malformed: false, diagnostics };
  }
  const tooDeep = scanNestingDepth(text, limits.maxDepth);
  if (tooDeep !== undefined) {
    // A document that is not JSON at all is a JSON_SYNTAX problem first (its pointers would lead nowhere).
    const syntaxOffset = nonRecursiveSyntaxErrorOffset(text);
    if (syntaxOffset !== undefined)
      return syntaxError(text, { offset: syntaxOffset, length: 1 }, "invalid JSON", subject);
    const sourceMap = createSourceMap(text, undefined, new Map([[tooDeep.pointer, tooDeep]]));
    const diagnostics = [depthLimitDiagnostic(tooDeep.pointer, limits)];
    return { ok: false, malformed: false, sourceMap, diagnostics };
  }
  // Most texts need no tree to be read: JSON.parse, and the tree only when a diagnostic is located (a
  // 16 MB plan took 5 s and ~300 MB through the tree).
  const quick = limits.maxDepth <= QUICK_MAX_DEPTH ? quickJsonValue(text, limits) : undefined;
  if (quick !== undefined) {
    const sourceMap = lazySourceMap(text, () => strictParse(text).root);
    return { ok: true, value: quick.value as JsonValue, sourceMap };
  }
  const { root, error, overflow } = strictParse(text);
  if (overflow === true) {
    const message =
      "the document is nested too deeply to be parsed (more levels than the parser's stack holds)";
    const hint = `lower maxDepth (it is ${limits.maxDepth} here; the default is ${DEFAULT_LIMITS.maxDepth})`;
    return { ok: false, malformed: false, diagnostics: [planDiagnostic("PLAN_LIMIT", message, "", hint)] };
  }
  if (root === undefined) {
    const what = error === undefined ? "invalid JSON" : describeParseError(error);
    return syntaxError(text, { offset: error?.offset ?? 0, length: error?.length ?? 1 }, what, subject);
  }
  const sourceMap = createSourceMap(text, root);
  const built = valueFromTree(root, limits, text);
  if (built.diagnostics.length > 0)
    return { ok: false, malformed: false, sourceMap, diagnostics: neutralHints(built.diagnostics, subject) };
  return { ok: true, value: built.value as JsonValue, sourceMap };
}

/**
 * Reads a JSON value from text as strictly as plan text is read (SPEC §11), with located problems: a key
 * repeated in one object, an integer beyond ±2^53, a number out of range (`1e999`) or too small for a double
 * (`1e-400`) are JSON_SYNTAX at their pointer (where `JSON.parse` keeps the last key, rounds, or reads
 * Infinity or 0); `-0` reads as 0; `__proto__` keys stay own data. `JSON.parse` reads the text once, and
 * the syntax tree is built only when something needs its checks or a pointer is located. A leading byte
 * order mark is ignored. Codes, messages and pointers are the plan reader's; the hints name the text as
 * `options.subject` says (default "text"), and speak of a plan only for `subject: "plan"`. Never throws.
 */
export function parseJsonText(source: string, options: ParseJsonTextOptions = {}): JsonTextResult {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  return readJsonText(text, resolveLimits(options.limits), options.subject ?? "text");
}
