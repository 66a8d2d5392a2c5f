import type { Diagnostic, PlanHash, SourceMap } from "@obelisk/core";
import { canonicalJson, sha256Hex } from "@obelisk/core";
import { DirectedGraph } from "graphology";
import type { CompiledPlan } from "./compiled-plan.js";

/**
 * A result that hands out nothing of the plan (never ok): no document, no calls, an empty graph, the hash
 * of what was submitted and the diagnostics that say why.
 */
export function refusedPlan(
  hash: PlanHash,
  diagnostics: readonly Diagnostic[],
  sourceMap: SourceMap | undefined,
): CompiledPlan {
  return {
    ok: false,
    planHash: hash,
    diagnostics,
    calls: [],
    criticalPaths: new Map(),
    graph: new DirectedGraph(),
    autoIdsUsed: 0,
    ...(sourceMap === undefined ? {} : { sourceMap }),
  };
}

/**
 * The refusal of a plan value that has no JSON copy (core's `normalizePlan` answers `uncopied`: not JSON,
 * or over `maxDocumentBytes`), made from the copy's diagnostics alone. The value is not read again — a
 * hostile one (a Proxy claiming a billion items) need not end —, so its hash names the refusal (SHA-256 of
 * the diagnostics' canonical JSON), not the value.
 */
export function uncopiedPlan(diagnostics: readonly Diagnostic[]): CompiledPlan {
  return refusedPlan(`sha256:${sha256Hex(canonicalJson(diagnostics))}`, diagnostics, undefined);
}
