import type { Node, ParseError } from "jsonc-parser";
import { parseTree, printParseErrorCode } from "jsonc-parser";
import type { Diagnostic } from "./diagnostic.js";
import { type SyntaxBreak, syntaxHint } from "./json-syntax-hint.js";
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
import { PLAN_SUBJECT, valueFromTree } from "./value-from-tree.js";

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

/** The one JSON_SYNTAX diagnostic for text that is not JSON, located where its syntax breaks. */
function syntaxError(text: string, at: SyntaxBreak, what: string, subject: string): JsonTextResult {
  const span = { offset: at.offset, length: Math.max(1, at.length) };
  const sourceMap = createSourceMap(text, undefined, new Map([["", span]]));
  const position = sourceMap.positionOfOffset(span.offset);
  const message = `invalid JSON at line ${position.line}, column ${position.column}: ${what}`;
  const hint = syntaxHint(text, at, subject);
  return {
    ok: false,
    malformed: true,
    sourceMap,
    diagnostics: [planDiagnostic("JSON_SYNTAX", message, "", hint)],
  };
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
 * the text in the hints (default "plan": the plan readers' hints).
 */
export function readJsonText(text: string, limits: Limits, subject: string = PLAN_SUBJECT): JsonTextResult {
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
    if (error === undefined) return syntaxError(text, { offset: 0, length: 1 }, "invalid JSON", subject);
    const at = { offset: error.offset, length: error.length, error: printParseErrorCode(error.error) };
    return syntaxError(text, at, describeParseError(error), subject);
  }
  const sourceMap = createSourceMap(text, root);
  const built = valueFromTree(root, limits, text, subject);
  if (built.diagnostics.length > 0)
    return { ok: false, malformed: false, sourceMap, diagnostics: built.diagnostics };
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
  // a JavaScript caller's slip (an HTTP body's bytes before decoding) is answered, not thrown
  if (typeof source !== "string") return notText(source);
  const given: ParseJsonTextOptions = typeof options === "object" && options !== null ? options : {};
  const subject = typeof given.subject === "string" ? given.subject : "text";
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  return readJsonText(text, resolveLimits(given.limits), subject);
}

/** JSON_SYNTAX for a value that is not text: bytes (decode them first), undefined, a number… */
function notText(source: unknown): JsonTextResult {
  const bytes = source instanceof Uint8Array;
  const what = bytes ? "bytes (a Buffer or Uint8Array)" : source === null ? "null" : typeof source;
  const hint = bytes
    ? 'decode it first: buffer.toString("utf8"), or new TextDecoder().decode(bytes)'
    : "pass the JSON text as a string";
  const message = `the text to parse must be a string, not ${what}`;
  return { ok: false, malformed: true, diagnostics: [planDiagnostic("JSON_SYNTAX", message, "", hint)] };
}
