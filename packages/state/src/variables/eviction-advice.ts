import type { Tombstone } from "../store-types.js";

/** The reasons that are retention limits (a store's or engine's `retention`, applied after runs and on read). */
const RETENTION_LIMITS: ReadonlySet<string> = new Set([
  "maxVariables",
  "maxBytes",
  "maxAgeMs",
  "maxCallOutputs",
  "maxCallOutputBytes",
  "maxCallOutputAgeMs",
]);

/**
 * What to do about an evicted value (the REF_EVICTED hint): how to have it again — send the call again for a
 * call output, write it again for state — and, when a retention limit evicted it, which limit keeps such
 * values longer (s32 review M2: "gone after lunch" with no word of either).
 */
export function evictionAdvice({ reference, reason }: Pick<Tombstone, "reference" | "reason">): string {
  const output = reference.startsWith("†calls.");
  const again = output
    ? "send the call again to store its output anew"
    : "write it again (a run's call or a set)";
  if (!RETENTION_LIMITS.has(reason)) return again;
  // the plan's own fix first (a model reads this hint); the host's setting after it, named as the host's
  const instead = output ? ", or give the call an _outputPath into †state (no limit by default)" : "";
  return `${again}${instead}; the host can keep ${output ? "call outputs" : "values"} longer by raising the retention limit ${reason} (createEngine({ retention }))`;
}
