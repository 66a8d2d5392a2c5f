import type { Diagnostic } from "./diagnostic.js";
import type { LimitOverrides, Limits } from "./limits.js";
import { resolveLimits } from "./limits.js";
import { normalizePlanShape } from "./normalize-plan.js";
import { readJsonText } from "./parse-json-text.js";
import type { PlanDocument } from "./plan-document.js";
import type { SourceMap } from "./source-map.js";

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
  readonly limits?: LimitOverrides;
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
  const read = readJsonText(text, limits);
  if (!read.ok) {
    const { sourceMap, diagnostics } = read;
    return sourceMap === undefined
      ? { diagnostics: [...diagnostics] }
      : { sourceMap, diagnostics: [...diagnostics] };
  }
  return documentResult(read.sourceMap, read.value, limits);
}

/** The result for a value read without problems: its document per {@link normalizePlan}'s shape rules. */
function documentResult(sourceMap: SourceMap, value: unknown, limits: Limits): PlanTextResult {
  const normalized = normalizePlanShape(value, limits);
  return normalized.document === undefined
    ? { sourceMap, diagnostics: normalized.diagnostics }
    : { document: normalized.document, sourceMap, diagnostics: normalized.diagnostics };
}
