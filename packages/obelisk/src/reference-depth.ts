import { DEFAULT_KINDS, type Limits, ObeliskError, parseReference } from "@obelisk/core";

/**
 * Refuses a reference deeper than the engine's `maxPathDepth` with PLAN_LIMIT, as `validate` and `run`
 * refuse one in a plan (the state functions parse it with the default limit). Anything else about the
 * reference is left to them.
 */
export function checkReferenceDepth(reference: string, limits: Pick<Limits, "maxPathDepth">): void {
  const parsed = parseReference(reference, DEFAULT_KINDS, limits);
  if (parsed.ok || parsed.issue.code !== "PLAN_LIMIT") return;
  throw new ObeliskError("PLAN_LIMIT", `${reference}: ${parsed.issue.message}`, {
    hint: `use a path with fewer segments, or raise limits.maxPathDepth (now ${limits.maxPathDepth})`,
  });
}
