import type { Diagnostic, LimitOverrides, PlanDocument, PlanHash, SourceMap } from "@obelisk/core";
import {
  canonicalJson,
  isAtOrBelow,
  isValueLimitDiagnostic,
  MAX_VALUE_DEPTH,
  normalizePlan,
  parseJsonText,
  parsePlanText,
  planHash,
  resolveLimits,
  sha256Hex,
  thrownMessage,
} from "@obelisk/core";
import { buildPlanGraph, lazyByVersion } from "./build-plan-graph.js";
import { MAX_STRIPPED_HINTS } from "./check-meta-like-param.js";
import { closePlan } from "./close-plan.js";
import { type CompileOptions, resolveCompileOptions } from "./compile-options.js";
import type { CompiledPlan, PlanGraph } from "./compiled-plan.js";
import { HintBudget } from "./hint-budget.js";
import { defineLazyGraph } from "./lazy-graph-property.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import { PlanBuilder } from "./plan-builder.js";
import { refusedPlan, uncopiedPlan } from "./refused-plan.js";
import type { ToolRegistry } from "./tool-registry.js";
import { MAX_TOOL_HINTS } from "./unknown-tool-hints.js";
import { ViolationListing } from "./violation-listing.js";

interface Located {
  readonly document?: PlanDocument;
  readonly sourceMap?: SourceMap;
  readonly diagnostics: readonly Diagnostic[];
  readonly hash: PlanHash;
  /** A value with no JSON copy (`normalizePlan`'s `uncopied`): refused by its diagnostics alone. */
  readonly uncopied?: true;
  /**
   * A plan over per-value limits only (`normalizePlan`'s placeholders): the copy with placeholders that is
   * compiled for the other diagnostics, the pointers of the replaced values, and the document the
   * diagnostics are ordered by. Never `document`: nothing of it is hashed, returned, approved or run.
   */
  readonly placeholders?: {
    readonly document: PlanDocument;
    readonly pointers: readonly string[];
    readonly order: unknown;
  };
}

function isPlanDocument(value: unknown): value is PlanDocument {
  if (typeof value !== "object" || value === null) return false;
  try {
    const candidate = value as Partial<PlanDocument>;
    return typeof candidate.form === "string" && Array.isArray(candidate.calls) && "source" in candidate;
  } catch {
    return false; // a throwing getter or a revoked Proxy: normalizing reports it as not JSON
  }
}

/** The hash of a value that is not a plan document (it is refused; the hash only names what was sent). */
function hashOf(value: unknown): PlanHash {
  try {
    return `sha256:${sha256Hex(typeof value === "string" ? value : canonicalJson(value))}`;
  } catch {
    try {
      return `sha256:${sha256Hex(String(value))}`;
    } catch {
      return `sha256:${sha256Hex("")}`; // uninspectable (a revoked Proxy): nothing to hash
    }
  }
}

function locate(plan: unknown, options: CompileOptions): Located {
  const limits = options.limits ?? {};
  if (typeof plan === "string") {
    const parsed = parsePlanText(plan, { limits });
    const hash = parsed.document === undefined ? hashOf(plan) : planHash(parsed.document);
    const overLimits = parsed.document === undefined ? textOverValueLimits(plan, parsed, limits) : undefined;
    if (overLimits !== undefined) return { ...overLimits, hash };
    return { ...parsed, hash, ...(parsed.sourceMap === undefined ? {} : { sourceMap: parsed.sourceMap }) };
  }
  if (isPlanDocument(plan)) return { document: plan, diagnostics: [], hash: planHash(plan) };
  const normalized = normalizePlan(plan, { limits });
  // no JSON copy: refused from the copy's answer, the value not read again (not even to hash it)
  if (normalized.uncopied === true)
    return { diagnostics: normalized.diagnostics, hash: "sha256:", uncopied: true };
  const hash = normalized.document === undefined ? hashOf(plan) : planHash(normalized.document);
  const { document, diagnostics, placeholders } = normalized;
  if (placeholders !== undefined)
    return { diagnostics, hash, placeholders: { ...placeholders, order: plan } };
  return document === undefined ? { diagnostics, hash } : { document, diagnostics, hash };
}

/**
 * Plan text the reader refused for PLAN_LIMIT problems alone (with a source map: not over the size limit):
 * read again with the per-value limits lifted (depth up to what a JSON copy holds), so that a plan whose only
 * limit problems are per-value is compiled with placeholders, as a parsed value is (`normalizePlan`).
 * Undefined when the text cannot be read so (JSON_SYNTAX, too deep for a JSON copy): the reader's result
 * stands. Only text refused for the limit of a value pays for the second read.
 */
function textOverValueLimits(
  text: string,
  parsed: { readonly sourceMap?: SourceMap; readonly diagnostics: readonly Diagnostic[] },
  partial: LimitOverrides,
): Omit<Located, "hash"> | undefined {
  const { sourceMap, diagnostics } = parsed;
  if (sourceMap === undefined || diagnostics.length === 0) return undefined;
  // Only limits of one value can be checked around; the reader's maxCalls refusal stands as it is.
  if (!diagnostics.every((diagnostic) => diagnostic.code === "PLAN_LIMIT")) return undefined;
  if (!diagnostics.some(isValueLimitDiagnostic)) return undefined;
  const limits = resolveLimits(partial);
  const lifted = {
    ...limits,
    maxStringLength: Number.POSITIVE_INFINITY,
    maxDepth: Math.max(limits.maxDepth, MAX_VALUE_DEPTH),
  };
  const read = parseJsonText(text, { limits: lifted });
  if (!read.ok) return undefined;
  const { diagnostics: found, placeholders } = normalizePlan(read.value, { limits });
  // The second read's map: the refused one holds only the place of the value that broke a limit (which a
  // depth refusal stops at), so every other diagnostic would sort before it.
  const map = read.sourceMap;
  // Without placeholders: a whole-document limit the reader did not reach (maxCalls is checked only
  // on a document read without problems), or the limits alone.
  if (placeholders === undefined) return { diagnostics: found, sourceMap: map };
  return { diagnostics: found, sourceMap: map, placeholders: { ...placeholders, order: read.value } };
}

/**
 * Compiles a plan (JSON text, a parsed value in any accepted form, or a `PlanDocument`) against a tool
 * registry: the DAG and every diagnostic of SPEC §6 at once, in document order. Never throws.
 */
export function compile(plan: unknown, registry: ToolRegistry, options: CompileOptions = {}): CompiledPlan {
  let hash: PlanHash = "sha256:";
  try {
    const located = locate(plan, options);
    if (located.uncopied === true) return uncopiedPlan(located.diagnostics);
    hash = located.hash;
    const resolved = resolveCompileOptions(options);
    const { placeholders } = located;
    // Over per-value limits only: the rest is compiled on the copy with placeholders (SPEC §6).
    const document = placeholders?.document ?? located.document;
    const settings = {
      kinds: resolved.kinds,
      limits: resolved.limits,
      context: resolved.context,
      parsedStrings: new Map(),
      sharedLocations: new Map(),
      templateExpressions: new Map(),
      bareSpellings: [],
      violationListing: new ViolationListing(),
      strippedHints: new HintBudget(MAX_STRIPPED_HINTS),
      toolHints: new HintBudget(MAX_TOOL_HINTS),
      ...(document?.inputSchema === undefined ? {} : { planInputSchema: document.inputSchema }),
    };
    const builder = new PlanBuilder(registry, settings, { ...resolved.builder, refuseInvalid: false });
    for (const source of document?.calls ?? []) {
      builder.addQuietly(source);
      // over maxWriterLinks: that PLAN_LIMIT alone, as for maxCalls (the plan-wide passes are what it bounds)
      const over = builder.overWriterLinks;
      if (over !== undefined) return refusedPlan(located.hash, [over], located.sourceMap);
    }
    const order = placeholders?.order ?? document?.source ?? plan;
    const closed = closePlan(builder, located.diagnostics, order, located.sourceMap);
    if (placeholders !== undefined)
      return overValueLimits(closed.diagnostics, located, placeholders.pointers);
    return defineLazyGraph(
      {
        ...closed,
        planHash: hash,
        ...(document === undefined ? {} : { document }),
        ...(located.sourceMap === undefined ? {} : { sourceMap: located.sourceMap }),
      },
      closedGraph(builder.entries, closed.criticalPaths),
    );
  } catch (error) {
    return internalFailure(hash, error);
  }
}

/**
 * The result for a plan over per-value limits only: its PLAN_LIMIT diagnostics with every other diagnostic
 * of the copy with placeholders, in document order, except those at or below a replaced value (they are
 * about the placeholder). Never ok, and nothing of the copy is handed out: no document, no calls, an empty
 * graph, and the hash of what was submitted (as for any document refused before compiling), not the copy's.
 */
function overValueLimits(
  diagnostics: readonly Diagnostic[],
  located: Located,
  pointers: readonly string[],
): CompiledPlan {
  const fromLocating = new Set(located.diagnostics);
  const under = (pointer: string) => pointers.some((base) => isAtOrBelow(pointer, base));
  const kept = diagnostics.filter((diagnostic) => fromLocating.has(diagnostic) || !under(diagnostic.pointer));
  return refusedPlan(located.hash, kept, located.sourceMap);
}

/** The graphology graph of a builder, built on first call (and rebuilt if calls were added since). */
export function lazyGraph(
  builder: PlanBuilder,
  criticalPaths?: ReadonlyMap<string, number>,
): () => PlanGraph {
  return lazyByVersion(
    () => builder.version,
    () => buildPlanGraph(builder.entries.values(), (e) => criticalPaths?.get(e.call.id) ?? e.tool.cost),
  );
}

/**
 * The graphology graph of a closed batch compile, built on first call. It keeps only the call entries:
 * the builder (its tries, its maps by reference text, the plan's parse caches) is garbage once the
 * compile returns, instead of living as long as the compiled plan.
 */
function closedGraph(
  entries: PlanBuilder["entries"],
  criticalPaths: ReadonlyMap<string, number>,
): () => PlanGraph {
  let graph: PlanGraph | undefined;
  return () => {
    graph ??= buildPlanGraph(entries.values(), (e) => criticalPaths.get(e.call.id) ?? e.tool.cost);
    return graph;
  };
}

/** The result when the compiler itself failed (a bug): an error diagnostic instead of a throw. */
export function internalFailure(hash: PlanHash, error: unknown): CompiledPlan {
  const message = `internal compiler error: ${thrownMessage(error)}`;
  const hint = "please report this plan as a bug";
  return refusedPlan(hash, [makeDiagnostic("PLAN_SHAPE", message, "", { hint })], undefined);
}
