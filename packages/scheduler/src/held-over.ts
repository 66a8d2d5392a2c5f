import type { CoreEffect } from "./decision-types.js";

/**
 * The verdict of a call that has a held `waiting` one and another unsatisfied expression: a blocked or
 * failed expression wins (its own reason), two waiting ones give one waiting verdict with both reasons.
 */
export function heldOver(held: CoreEffect | undefined, next: CoreEffect): CoreEffect {
  if (held === undefined || held.type !== "unsatisfied" || next.type !== "unsatisfied") return next;
  if (next.status !== "waiting") return next;
  return { ...held, reason: `${held.reason}; ${next.reason}` };
}
