import type { Diagnostic, JsonObject, JsonValue, PlanDocument, PlanHash } from "@obelisk/core";
import { appendPointer, normalizePlan, planHash, toJsonValue } from "@obelisk/core";
import { appendAll } from "./append-all.js";
import { MAX_STRIPPED_HINTS } from "./check-meta-like-param.js";
import { closePlan } from "./close-plan.js";
import { internalFailure, lazyGraph } from "./compile.js";
import { type CompileOptions, resolveCompileOptions } from "./compile-options.js";
import type { CompiledCall, CompiledPlan, PlanGraph } from "./compiled-plan.js";
import { HintBudget } from "./hint-budget.js";
import { defineLazyGraph } from "./lazy-graph-property.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import { startHintPass } from "./near-reference-hint.js";
import { type AddCallResult, PlanBuilder } from "./plan-builder.js";
import type { ToolRegistry } from "./tool-registry.js";
import { MAX_TOOL_HINTS } from "./unknown-tool-hints.js";
import { ViolationListing } from "./violation-listing.js";

/** Options of `createIncrementalCompiler`. */
export interface IncrementalCompileOptions extends CompileOptions {
  /** JSON Schema of the run's input (what a plan document's `inputSchema` would say). */
  readonly inputSchema?: JsonObject;
}

/** Compiles a plan one call at a time, as an LLM streams it (SPEC §7 Streaming). */
export interface IncrementalCompiler {
  /** Validates one call, wires it both ways, refuses it (CYCLE) when it would close a cycle. Never throws. */
  addCall(call: unknown): AddCallResult;
  /** Runs the plan-wide passes (REF_UNRESOLVED, types, UNREACHABLE) and returns the plan. Idempotent. */
  close(): CompiledPlan;
  /** Calls added so far, in order. */
  readonly calls: readonly CompiledCall[];
  /** The graph so far, built on access (critical paths are computed at close). */
  readonly graph: PlanGraph;
}

/**
 * One call checked as a one-call document: its limit and not-JSON diagnostics, rebased onto its pointer,
 * and the frozen JSON copy that is compiled, hashed and stored (null for a value with no copy within
 * `maxDocumentBytes`: not JSON, or larger).
 */
function checkCall(
  call: unknown,
  pointer: string,
  options: CompileOptions,
): { readonly diagnostics: Diagnostic[]; readonly value: JsonValue } {
  const checked = normalizePlan(call, { limits: { ...options.limits, maxCalls: Number.MAX_SAFE_INTEGER } });
  const diagnostics = checked.diagnostics
    .filter((diagnostic) => diagnostic.code === "PLAN_LIMIT" || diagnostic.code === "JSON_SYNTAX")
    .map((diagnostic) => ({ ...diagnostic, pointer: pointer + diagnostic.pointer }));
  if (checked.document !== undefined) return { diagnostics, value: checked.document.source as JsonValue };
  // no copy within maxDocumentBytes: not read again (a Proxy claiming a billion items would be copied whole)
  if (checked.uncopied === true) return { diagnostics, value: null };
  const copy = toJsonValue(call, { maxBytes: Number.MAX_SAFE_INTEGER, remember: true });
  return { diagnostics, value: copy.ok ? copy.value : null };
}

/**
 * Creates an incremental compiler. Pointers are `/plan/<index>`. Batch `compile` uses the same builder,
 * so both give the same graph and diagnostics for an acyclic plan.
 */
export function createIncrementalCompiler(
  registry: ToolRegistry,
  options: IncrementalCompileOptions = {},
): IncrementalCompiler {
  const resolved = resolveCompileOptions(options);
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
    ...(options.inputSchema === undefined ? {} : { planInputSchema: options.inputSchema }),
  };
  const builder = new PlanBuilder(registry, settings, { ...resolved.builder, refuseInvalid: true });
  const values: unknown[] = [];
  let closed: CompiledPlan | undefined;
  const addCall = (call: unknown): AddCallResult => {
    const index = values.length;
    const pointer = appendPointer("/plan", index);
    if (closed !== undefined)
      return { ok: false, diagnostics: [makeDiagnostic("PLAN_SHAPE", "the plan is closed", pointer)] };
    values.push(null);
    try {
      const checked = checkCall(call, pointer, options);
      values[index] = checked.value;
      const refused =
        index >= resolved.limits.maxCalls
          ? [makeDiagnostic("PLAN_LIMIT", `more than ${resolved.limits.maxCalls} calls`, pointer)]
          : checked.diagnostics;
      if (refused.length > 0) {
        appendAll(builder.diagnostics, refused);
        return { ok: false, diagnostics: refused };
      }
      startHintPass(builder); // each arriving call gets its own did-you-mean budget
      settings.strippedHints.refill();
      settings.toolHints.refill();
      return builder.add({ value: checked.value, pointer, index });
    } catch (error) {
      const diagnostic = makeDiagnostic(
        "PLAN_SHAPE",
        `internal compiler error: ${(error as Error).message}`,
        pointer,
      );
      builder.diagnostics.push(diagnostic);
      return { ok: false, diagnostics: [diagnostic] };
    }
  };
  const close = (): CompiledPlan => {
    if (closed !== undefined) return closed;
    const source = { type: "plan", plan: values };
    const document: PlanDocument = {
      form: "plan",
      calls: values.map((value, index) => ({ value, pointer: appendPointer("/plan", index), index })),
      source,
      ...(options.inputSchema === undefined ? {} : { inputSchema: options.inputSchema }),
    };
    let hash: PlanHash = "sha256:";
    try {
      hash = planHash(document);
      startHintPass(builder);
      const plan = closePlan(builder, [], source);
      closed = defineLazyGraph({ ...plan, planHash: hash, document }, lazyGraph(builder, plan.criticalPaths));
    } catch (error) {
      closed = internalFailure(hash, error);
    }
    return closed;
  };
  const liveGraph = lazyGraph(builder);
  return {
    addCall,
    close,
    calls: builder.calls,
    get graph() {
      return liveGraph();
    },
  };
}
