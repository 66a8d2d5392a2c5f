import type { CallEnding } from "./call-record.js";
import type { CoreEffect } from "./decision-types.js";

/** The decision core's effect for a call that cannot be satisfied. */
type UnsatisfiedEffect = Extract<CoreEffect, { type: "unsatisfied" }>;

/**
 * How a call the core found unsatisfied ends: `cancelled` with the run's abort reason when the run is
 * aborted (`abortReason` given), else the core's status and reason; a failed one carries an error whose
 * message adds the compiler's hint for the call (what close was given), if any.
 */
export function unsatisfiedEnding(
  effect: UnsatisfiedEffect,
  abortReason: string | undefined,
  hint: string | undefined,
): CallEnding {
  if (abortReason !== undefined) return { status: "cancelled", wrote: [], reason: abortReason };
  if (effect.status !== "failed") return { status: effect.status, wrote: [], reason: effect.reason };
  const message = hint === undefined ? effect.reason : `${effect.reason} (${hint})`;
  return {
    status: "failed",
    wrote: [],
    reason: effect.reason,
    error: { name: "ObeliskError", code: effect.code, message },
  };
}
