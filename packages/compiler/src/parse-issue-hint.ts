import type { LanguageIssue } from "@obelisk/core";

/** The hint of a path-depth `PLAN_LIMIT` (the scanner that finds it gives none). */
export const PATH_DEPTH_HINT = "use a path with fewer segments, or raise maxPathDepth";

/** The hint of a parse issue: its own, or, for a `PLAN_LIMIT` (path depth) without one, `PATH_DEPTH_HINT`. */
export function parseIssueHint(issue: LanguageIssue): string | undefined {
  return issue.hint ?? (issue.code === "PLAN_LIMIT" ? PATH_DEPTH_HINT : undefined);
}
