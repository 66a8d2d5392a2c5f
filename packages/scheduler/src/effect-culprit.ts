import type { CoreEffect } from "./decision-types.js";

/** The calls a fatal error is attributed to: a call's index, or a commit group's. */
export type Culprit = number | readonly number[] | undefined;

/** The calls a failure while performing `effect` is attributed to. */
export function culpritOf(effect: CoreEffect): Culprit {
  return effect.type === "finish" ? undefined : effect.index;
}
