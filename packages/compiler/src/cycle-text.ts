/** Calls of a cycle shown at each end of a long one. */
const SHOWN_AT_EACH_END = 10;

/**
 * A cycle as text, `a → b → c → a`; a long one keeps its first and last calls around the count of the
 * ones left out (a 20,000-call cycle made a message of ~170,000 characters). The diagnostic's `related`
 * keeps every call.
 */
export function cycleText(path: readonly string[]): string {
  if (path.length <= 2 * SHOWN_AT_EACH_END + 1) return path.join(" → ");
  const left = path.length - 2 * SHOWN_AT_EACH_END;
  return [
    ...path.slice(0, SHOWN_AT_EACH_END),
    `… ${left.toLocaleString("en-US")} more …`,
    ...path.slice(-SHOWN_AT_EACH_END),
  ].join(" → ");
}
