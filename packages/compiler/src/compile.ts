import type { Diagnostic, PlanDocument, PlanHash, SourceMap } from "@obelisk/core";
import { canonicalJson, normalizePlan, parsePlanText, planHash, sha256Hex } from "@obelisk/core";
import { DirectedGraph } from "graphology";
import { buildPlanGraph, lazyByVersion } from "./build-plan-graph.js";
import { closePlan } from "./close-plan.js";
import { type CompileOptions, resolveCompileOptions } from "./compile-options.js";
import type { CompiledPlan, PlanGraph } from "./compiled-plan.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import { PlanBuilder } from "./plan-builder.js";
import type { ToolRegistry } from "./tool-registry.js";

interface Located {
  readonly document?: PlanDocument;
  readonly sourceMap?: SourceMap;
  readonly diagnostics: readonly Diagnostic[];
  readonly hash: PlanHash;
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
    return { ...parsed, hash, ...(parsed.sourceMap === undefined ? {} : { sourceMap: parsed.sourceMap }) };
  }
  if (isPlanDocument(plan)) return { document: plan, diagnostics: [], hash: planHash(plan) };
  const normalized = normalizePlan(plan, { limits });
  const hash = normalized.document === undefined ? hashOf(plan) : planHash(normalized.document);
  return { ...normalized, hash };
}

/**
 * Compiles a plan (JSON text, a parsed value in any accepted form, or a `PlanDocument`) against a tool
 * registry: the DAG and every diagnostic of SPEC §6 at once, in document order. Never throws.
 */
export function compile(plan: unknown, registry: ToolRegistry, options: CompileOptions = {}): CompiledPlan {
  let hash: PlanHash = "sha256:";
  try {
    const located = locate(plan, options);
    hash = located.hash;
    const resolved = resolveCompileOptions(options);
    const document = located.document;
    const settings = {
      kinds: resolved.kinds,
      limits: resolved.limits,
      context: resolved.context,
      parsedStrings: new Map(),
      sharedLocations: new Map(),
      templateExpressions: new Map(),
      bareSpellings: [],
      ...(document?.inputSchema === undefined ? {} : { planInputSchema: document.inputSchema }),
    };
    const builder = new PlanBuilder(registry, settings, { ...resolved.builder, refuseInvalid: false });
    for (const source of document?.calls ?? []) builder.addQuietly(source);
    const closed = closePlan(builder, located.diagnostics, document?.source ?? plan, located.sourceMap);
    const graph = closedGraph(builder.entries, closed.criticalPaths);
    return {
      ...closed,
      get graph() {
        return graph();
      },
      planHash: hash,
      ...(document === undefined ? {} : { document }),
      ...(located.sourceMap === undefined ? {} : { sourceMap: located.sourceMap }),
    };
  } catch (error) {
    return internalFailure(hash, error);
  }
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
  const message = `internal compiler error: ${error instanceof Error ? error.message : String(error)}`;
  return {
    ok: false,
    planHash: hash,
    diagnostics: [makeDiagnostic("PLAN_SHAPE", message, "", { hint: "please report this plan as a bug" })],
    calls: [],
    criticalPaths: new Map(),
    graph: new DirectedGraph(),
    autoIdsUsed: 0,
  };
}
