import { type CompiledPlan, compile, type ToolRegistry, uncopiedPlan } from "@obelisk/compiler";
import {
  type KindTable,
  type LimitOverrides,
  normalizePlan,
  resolveLimits,
  toJsonValue,
} from "@obelisk/core";

/**
 * A plan as it was when the engine was called: what every compile of that run or validation reads, so
 * that later changes to the caller's objects change nothing (decision 0008) and a second compile is of
 * the plan the first approved (decision 0092).
 */
export interface FrozenPlan {
  /** Plan text as given, or a frozen JSON copy of a plan value (core's `normalizePlan` takes it as is). */
  readonly value: unknown;
  /**
   * The refusal of a plan value that has no JSON copy (not JSON, or over `maxDocumentBytes`), made from the
   * copy's answer when the engine was called: it reports only that, so it needs no thread context.
   */
  readonly refused?: CompiledPlan;
}

/**
 * Freezes a plan before the engine's first `await`: text as it is (a string does not change); any other
 * value as a remembered frozen JSON copy held to `maxDocumentBytes`, the copy the compile's first step
 * would make (so the plan is still copied once: `normalizePlan` reuses a remembered copy). The copy is the
 * only reading of the caller's object: a value it refuses is refused from the copy's own answer (where and
 * why it stopped), never read again (decision 0095: a Proxy claiming a billion items, read a second time,
 * did not end). A `PlanDocument` (compiled as it is, without a copy) whose copy fails is kept and compiled
 * later, as before.
 */
export function freezePlan(
  plan: unknown,
  registry: ToolRegistry,
  kinds: KindTable,
  limits: LimitOverrides | undefined,
): FrozenPlan {
  if (typeof plan === "string") return { value: plan };
  const { maxDocumentBytes } = resolveLimits(limits);
  const copy = toJsonValue(plan, { maxBytes: maxDocumentBytes, remember: true });
  if (copy.ok) return { value: copy.value };
  if (isPlanDocument(plan)) {
    const compiled = compile(plan, registry, { kinds, ...(limits === undefined ? {} : { limits }) });
    return compiled.ok ? { value: plan } : { value: plan, refused: compiled };
  }
  const { diagnostics } = normalizePlan(plan, { copy, ...(limits === undefined ? {} : { limits }) });
  return { value: plan, refused: uncopiedPlan(diagnostics) };
}

/** The compiler's test of a `PlanDocument` (a few reads; a throwing getter or a revoked Proxy: not one). */
function isPlanDocument(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  try {
    const candidate = value as { form?: unknown; calls?: unknown };
    return typeof candidate.form === "string" && Array.isArray(candidate.calls) && "source" in candidate;
  } catch {
    return false;
  }
}
