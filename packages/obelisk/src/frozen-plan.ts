import { type CompiledPlan, compile, type ToolRegistry } from "@obelisk/compiler";
import { type KindTable, type LimitOverrides, resolveLimits, toJsonValue } from "@obelisk/core";

/**
 * A plan as it was when the engine was called: what every compile of that run or validation reads, so
 * that later changes to the caller's objects change nothing (decision 0008) and a second compile is of
 * the plan the first approved (decision 0092).
 */
export interface FrozenPlan {
  /** Plan text as given, or a frozen JSON copy of a plan value (core's `normalizePlan` takes it as is). */
  readonly value: unknown;
  /**
   * The refusal of a plan value that has no JSON copy (not JSON, or over `maxDocumentBytes`), compiled when
   * the engine was called: it reports only that, so it needs no thread context.
   */
  readonly refused?: CompiledPlan;
}

/**
 * Freezes a plan before the engine's first `await`: text as it is (a string does not change); any other
 * value as a remembered frozen JSON copy held to `maxDocumentBytes`, the copy the compile's first step
 * would make (so the plan is still copied once: `normalizePlan` reuses a remembered copy). A value the
 * copy refuses is compiled at once, from the caller's object, as before; if that compile were valid
 * (a `PlanDocument` whose copy is over the limit) the value is kept and compiled later, as before.
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
  const refused = compile(plan, registry, { kinds, ...(limits === undefined ? {} : { limits }) });
  return refused.ok ? { value: plan } : { value: plan, refused };
}
