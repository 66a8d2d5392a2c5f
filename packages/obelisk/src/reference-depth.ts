import { DEFAULT_KINDS, type Limits, ObeliskError, parseReference } from "@obelisk/core";

/**
 * Refuses a reference deeper than the engine's `maxPathDepth` with PLAN_LIMIT, as `validate` and `run`
 * refuse one in a plan. The state functions, given the same limit, refuse it too; this check comes first so
 * that the refusal precedes the thread's lock and the value's checks, and names the engine option in its
 * hint. Anything else about the reference is left to them.
 */
export function checkReferenceDepth(reference: string, limits: Pick<Limits, "maxPathDepth">): void {
  const parsed = parseReference(reference, DEFAULT_KINDS, limits);
  if (parsed.ok || parsed.issue.code !== "PLAN_LIMIT") return;
  throw new ObeliskError("PLAN_LIMIT", `${reference}: ${parsed.issue.message}`, {
    hint: `use a path with fewer segments, or raise limits.maxPathDepth (now ${limits.maxPathDepth})`,
  });
}
