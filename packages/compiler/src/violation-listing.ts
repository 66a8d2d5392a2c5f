/** Schema violations listed for one call's parameters (or one `_output`); the rest are counted. */
export const MAX_LISTED_PER_CALL = 100;

/** Schema violations listed in one compile; past it, a call's violations are counted, not listed. */
export const MAX_LISTED_PER_PLAN = 1000;

/**
 * How many schema violations a compile still lists (decision 0076). A literal of two million wrong items
 * gave two million PARAM_INVALID (20 s and 1.8 GB to validate an 8 MB plan), and 20,000 small calls of 60
 * wrong items each 1.2 million: each one diagnostic per violation, all sorted and kept. Now a call lists at
 * most `MAX_LISTED_PER_CALL`, the plan at most `MAX_LISTED_PER_PLAN`, and one PARAM_INVALID at the call says
 * how many more there are, so a plan yields at most one more diagnostic per call than the budget.
 */
export class ViolationListing {
  #listed = 0;

  /** How many violations the next call may list. */
  quota(): number {
    return Math.max(0, Math.min(MAX_LISTED_PER_CALL, MAX_LISTED_PER_PLAN - this.#listed));
  }

  /** Records that a call listed `count` violations. */
  spend(count: number): void {
    this.#listed += count;
  }
}
