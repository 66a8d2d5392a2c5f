import type { RunResult } from "obelisk";

/** The reasons a satisfied call may carry: what a resume kept (0043), or what a re-send wrote back over. */
const SATISFIED_REASON = /^(not restored|restored over a later value): /;

/**
 * Problems with a run result's outcomes (empty when all is well): each outcome's fields agree with its
 * status as `CallOutcome`'s type promises (succeeded: no reason; satisfied: no reason but one of
 * {@link SATISFIED_REASON}; both: an error only with a branch; failed: an error, no branch, listed in
 * `errors`; every other status: a reason and neither of the others).
 */
export function outcomeProblems(result: RunResult): string[] {
  const problems: string[] = [];
  const failed = new Set(result.errors.map((error) => error.callId));
  for (const [id, outcome] of Object.entries(result.calls)) {
    const label = `${id} (${outcome.status})`;
    switch (outcome.status) {
      case "succeeded":
      case "satisfied":
        // a satisfied call says when it kept a later write (resume, 0043) or wrote its value back over one
        if (
          outcome.reason !== undefined &&
          !(outcome.status === "satisfied" && SATISFIED_REASON.test(outcome.reason))
        )
          problems.push(`${label} has a reason`);
        if (outcome.error !== undefined && outcome.branch === undefined)
          problems.push(`${label} has an error but no branch`);
        break;
      case "failed":
        if (typeof outcome.error?.code !== "string" || typeof outcome.error.message !== "string")
          problems.push(`${label} has no error`);
        if (outcome.branch !== undefined) problems.push(`${label} has a branch`);
        if (!failed.has(id)) problems.push(`${label} is not in errors`);
        break;
      default:
        if (typeof outcome.reason !== "string" || outcome.reason === "")
          problems.push(`${label} has no reason`);
        if (outcome.error !== undefined) problems.push(`${label} has an error`);
        if (outcome.branch !== undefined) problems.push(`${label} has a branch`);
    }
  }
  for (const id of failed)
    if (result.calls[id]?.status !== "failed") problems.push(`${id} in errors but not failed`);
  return problems;
}
