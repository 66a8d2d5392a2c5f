import type { SchemaIssue } from "./schema-validator.js";

/** A failed combinator's branches as its sub-issues show them: by index, whether the type refused it. */
type Branches = Map<string, boolean>;

/** The key of a failed combinator: its keyword's place and the value's. */
const keyOf = (schemaPath: string, instancePath: string): string => `${schemaPath}\u0000${instancePath}`;

/** Calls `visit` with `path` and each of its proper ancestors (slash-separated), nearest first; stops on true. */
function selfOrAncestor(path: string, visit: (at: string) => boolean): boolean {
  if (visit(path)) return true;
  for (
    let slash = path.lastIndexOf("/");
    slash >= 0;
    slash = slash === 0 ? -1 : path.lastIndexOf("/", slash - 1)
  )
    if (visit(path.slice(0, slash))) return true;
  return false;
}

/**
 * The failed combinator (`anyOf` / `oneOf` at `schemaPath`) `issue` is a sub-issue of, with the branch it
 * sits in, or undefined: the nearest value at or above the issue's where such a combinator failed.
 */
function branchOf(
  issue: SchemaIssue,
  schemaPath: string,
  failed: ReadonlyMap<string, unknown>,
): { readonly key: string; readonly index: string; readonly at: string } | undefined {
  const start = schemaPath.length + 1;
  const end = issue.schemaPath.indexOf("/", start);
  const index = issue.schemaPath.slice(start, end < 0 ? undefined : end);
  let found: { key: string; index: string; at: string } | undefined;
  selfOrAncestor(issue.instancePath, (at) => {
    const key = keyOf(schemaPath, at);
    if (!failed.has(key)) return false;
    found = { key, index, at };
    return true;
  });
  return found;
}

/**
 * Reads the branches of each failed `anyOf` / `oneOf` (their sub-issues, under `<combinator>/<k>/`) so
 * that a violation is one diagnostic that says what is wrong instead of "must match a schema in anyOf":
 * when the value's type refuses every branch but one (`z.object(…).nullable()`: an object is not `null`),
 * the remaining branch's issues are the violation. Returns, for an issue below a failed combinator's
 * schema path (`combinatorPath`), whether it sits in such a picked branch; and for a combinator issue
 * whether its branch was picked (it is then left out). Only certain readings: a combinator with fewer
 * than two branches in view (a `$ref`'d branch reports from its target) or a `oneOf` that failed because
 * several branches matched is left as it is. Linear in issues × schema depth × value depth.
 */
export function pickedBranches(
  issues: readonly SchemaIssue[],
  groupingPaths: ReadonlySet<string>,
): {
  readonly picked: (combinator: SchemaIssue) => boolean;
  readonly inPickedBranch: (issue: SchemaIssue, combinatorPath: string) => boolean;
} {
  const failed = new Map<string, Branches>();
  for (const issue of issues) {
    const keyword = issue.keyword;
    if (keyword !== "anyOf" && keyword !== "oneOf") continue;
    if (keyword === "oneOf" && issue.params.passingSchemas != null) continue;
    failed.set(keyOf(issue.schemaPath, issue.instancePath), new Map());
  }
  for (const issue of issues) {
    forEachCombinatorAbove(issue.schemaPath, groupingPaths, (path) => {
      const branch = branchOf(issue, path, failed);
      if (branch === undefined) return;
      const branches = failed.get(branch.key) as Branches;
      const byType =
        issue.keyword === "type" &&
        branch.at === issue.instancePath &&
        issue.schemaPath === `${path}/${branch.index}/type`;
      branches.set(branch.index, (branches.get(branch.index) ?? false) || byType);
    });
  }
  const chosen = new Map<string, string>();
  for (const [key, branches] of failed) {
    if (branches.size < 2) continue;
    let open: string | undefined;
    let count = 0;
    for (const [index, byType] of branches)
      if (!byType) {
        open = index;
        count++;
      }
    if (count === 1 && open !== undefined) chosen.set(key, open);
  }
  return {
    picked: (combinator) => chosen.has(keyOf(combinator.schemaPath, combinator.instancePath)),
    inPickedBranch: (issue, combinatorPath) => {
      if (chosen.size === 0) return false;
      const branch = branchOf(issue, combinatorPath, failed);
      return branch !== undefined && chosen.get(branch.key) === branch.index;
    },
  };
}

/** Calls `visit` with each proper ancestor of `schemaPath` that is a failed combinator's path. */
function forEachCombinatorAbove(
  schemaPath: string,
  groupingPaths: ReadonlySet<string>,
  visit: (path: string) => void,
): void {
  for (let slash = schemaPath.lastIndexOf("/"); slash > 0; slash = schemaPath.lastIndexOf("/", slash - 1)) {
    const path = schemaPath.slice(0, slash);
    if (groupingPaths.has(path)) visit(path);
  }
}
