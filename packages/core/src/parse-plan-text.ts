import type { Node, ParseError } from "jsonc-parser";
import { parseTree, printParseErrorCode } from "jsonc-parser";
import type { Diagnostic } from "./diagnostic.js";
import type { Limits } from "./limits.js";
import { DEFAULT_LIMITS, resolveLimits } from "./limits.js";
import { normalizePlanShape } from "./normalize-plan.js";
import { planDiagnostic } from "./plan-diagnostic.js";
import type { PlanDocument } from "./plan-document.js";
import { depthLimitDiagnostic } from "./plan-limit-diagnostics.js";
import { lazySourceMap, quickJsonValue } from "./quick-json-value.js";
import { scanNestingDepth } from "./scan-nesting-depth.js";
import type { SourceMap } from "./source-map.js";
import { createSourceMap } from "./source-map.js";
import { utf8LengthExceeds } from "./utf8-length.js";
import { valueFromTree } from "./value-from-tree.js";

/** The result of {@link parsePlanText}. */
export interface PlanTextResult {
  /** The normalized document, present whenever the calls could be located. */
  readonly document?: PlanDocument;
  /** Locates pointers and offsets in the text (absent only when the text is over the size limit). */
  readonly sourceMap?: SourceMap;
  /** JSON_SYNTAX, PLAN_LIMIT and PLAN_SHAPE problems. */
  readonly diagnostics: Diagnostic[];
}

/** Options of {@link parsePlanText}. */
export interface ParsePlanTextOptions {
  /** Limits to enforce (defaults: {@link DEFAULT_LIMITS}). */
  readonly limits?: Partial<Limits>;
}

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

/** The one JSON_SYNTAX diagnostic for text that is not JSON, located at `offset`. */
function syntaxErrorResult(text: string, offset: number, length: number, what: string): PlanTextResult {
  const span = { offset, length: Math.max(1, length) };
  const sourceMap = createSourceMap(text, undefined, new Map([["", span]]));
  const at = sourceMap.positionOfOffset(span.offset);
  const message = `invalid JSON at line ${at.line}, column ${at.column}: ${what}`;
  const syntax = planDiagnostic("JSON_SYNTAX", message, "", "the plan must be strict JSON (no comments)");
  return { sourceMap, diagnostics: [syntax] };
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
 * Parses a plan document from JSON text (SPEC §5, §11): size, syntax, depth and string-length checks,
 * prototype-safe plain data (`__proto__` keys stay own data), then {@link normalizePlan}'s shape rules.
 * A leading byte order mark is ignored. Never throws.
 */
export function parsePlanText(source: string, options: ParsePlanTextOptions = {}): PlanTextResult {
  // A leading byte order mark (Windows editors write one) is not part of the JSON: dropped, as the CLI
  // drops it when it reads a file, so line:column positions are the ones an editor shows.
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const limits = resolveLimits(options.limits);
  if (utf8LengthExceeds(text, limits.maxDocumentBytes)) {
    const message = `the document is larger than the limit of ${limits.maxDocumentBytes} bytes`;
    return { diagnostics: [planDiagnostic("PLAN_LIMIT", message, "", "raise maxDocumentBytes")] };
  }
  const tooDeep = scanNestingDepth(text, limits.maxDepth);
  if (tooDeep !== undefined) {
    // A document that is not JSON at all is a JSON_SYNTAX problem first (its pointers would lead nowhere).
    const syntaxOffset = nonRecursiveSyntaxErrorOffset(text);
    if (syntaxOffset !== undefined) return syntaxErrorResult(text, syntaxOffset, 1, "invalid JSON");
    const sourceMap = createSourceMap(text, undefined, new Map([[tooDeep.pointer, tooDeep]]));
    return { sourceMap, diagnostics: [depthLimitDiagnostic(tooDeep.pointer, limits)] };
  }
  // Most plans need no tree to be read: JSON.parse, and the tree only when a diagnostic is located (a
  // 16 MB plan took 5 s and ~300 MB through the tree).
  const quick = limits.maxDepth <= QUICK_MAX_DEPTH ? quickJsonValue(text, limits) : undefined;
  if (quick !== undefined) {
    const sourceMap = lazySourceMap(text, () => strictParse(text).root);
    return documentResult(sourceMap, quick.value, limits);
  }
  const { root, error, overflow } = strictParse(text);
  if (overflow === true) {
    const message =
      "the document is nested too deeply to be parsed (more levels than the parser's stack holds)";
    const hint = `lower maxDepth (it is ${limits.maxDepth} here; the default is ${DEFAULT_LIMITS.maxDepth})`;
    return { diagnostics: [planDiagnostic("PLAN_LIMIT", message, "", hint)] };
  }
  if (root === undefined) {
    const what = error === undefined ? "invalid JSON" : describeParseError(error);
    return syntaxErrorResult(text, error?.offset ?? 0, error?.length ?? 1, what);
  }
  const sourceMap = createSourceMap(text, root);
  const built = valueFromTree(root, limits, text);
  if (built.diagnostics.length > 0) return { sourceMap, diagnostics: built.diagnostics };
  return documentResult(sourceMap, built.value, limits);
}

/** The result for a value read without problems: its document per {@link normalizePlan}'s shape rules. */
function documentResult(sourceMap: SourceMap, value: unknown, limits: Limits): PlanTextResult {
  const normalized = normalizePlanShape(value, limits);
  return normalized.document === undefined
    ? { sourceMap, diagnostics: normalized.diagnostics }
    : { document: normalized.document, sourceMap, diagnostics: normalized.diagnostics };
}
