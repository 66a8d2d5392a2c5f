import type { SchemaIssue } from "./schema-validator.js";

/** One branch of a failed combinator as its sub-issues show it. */
interface Branch {
  /** Refused for its type alone at the combinator's own value. */
  byType: boolean;
  /** The key whose `const` it refused (the value at `<combinator's value>/<key>`), with that const. */
  constKey: string | undefined;
  constValue: unknown;
  consts: number;
}

/** A failed combinator's branches, by index. */
type Branches = Map<string, Branch>;

/** The key of a failed combinator: its keyword's place and the value's. */
const keyOf = (schemaPath: string, instancePath: string): string => `${schemaPath}\u0000${instancePath}`;

/** Calls `visit` with every proper ancestor of a slash-separated path, nearest first; stops when it returns true. */
export function someAncestor(path: string, visit: (ancestor: string) => boolean): boolean {
  for (
    let slash = path.lastIndexOf("/");
    slash >= 0;
    slash = slash === 0 ? -1 : path.lastIndexOf("/", slash - 1)
  ) {
    if (visit(path.slice(0, slash))) return true;
  }
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
  const visit = (at: string): boolean => {
    const key = keyOf(schemaPath, at);
    if (!failed.has(key)) return false;
    found = { key, index, at };
    return true;
  };
  // the issue's own value first, then the values above it
  if (!visit(issue.instancePath)) someAncestor(issue.instancePath, visit);
  return found;
}

/**
 * Reads the branches of each failed `anyOf` / `oneOf` (their sub-issues, under `<combinator>/<k>/`) so
 * that a violation is one diagnostic that says what is wrong instead of "must match a schema in anyOf":
 * when the value's type refuses every branch but one (`z.object(…).nullable()`: an object is not `null`),
 * the remaining branch's issues are the violation; when every branch refuses one key's value by a
 * `const` (a discriminated union's `kind`), that key is the violation (`instead`: one `enum` issue).
 * Returns, for an issue below a failed combinator's
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
  readonly instead: (combinator: SchemaIssue) => SchemaIssue | undefined;
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
      let seen = branches.get(branch.index);
      if (seen === undefined) {
        seen = { byType: false, constKey: undefined, constValue: undefined, consts: 0 };
        branches.set(branch.index, seen);
      }
      const rest = issue.schemaPath.slice(path.length + branch.index.length + 2);
      if (issue.keyword === "type" && branch.at === issue.instancePath && rest === "type") seen.byType = true;
      const constOf = issue.keyword === "const" ? /^properties\/([^/]+)\/const$/.exec(rest) : null;
      if (constOf !== null && issue.instancePath === `${branch.at}/${constOf[1]}`) {
        seen.constKey = constOf[1];
        seen.constValue = issue.params.allowedValue;
        seen.consts++;
      }
    });
  }
  const chosen = new Map<string, string>();
  const discriminated = new Map<string, SchemaIssue>();
  for (const [key, branches] of failed) {
    if (branches.size < 2) continue;
    let open: string | undefined;
    let count = 0;
    for (const [index, branch] of branches)
      if (!branch.byType) {
        open = index;
        count++;
      }
    if (count === 1 && open !== undefined) chosen.set(key, open);
    else {
      const instead = discriminatorIssue(key, branches);
      if (instead !== undefined) discriminated.set(key, instead);
    }
  }
  return {
    instead: (combinator) => discriminated.get(keyOf(combinator.schemaPath, combinator.instancePath)),
    picked: (combinator) => chosen.has(keyOf(combinator.schemaPath, combinator.instancePath)),
    inPickedBranch: (issue, combinatorPath) => {
      if (chosen.size === 0) return false;
      const branch = branchOf(issue, combinatorPath, failed);
      return branch !== undefined && chosen.get(branch.key) === branch.index;
    },
  };
}

/**
 * When every branch refused the value of one key by its `const`, and nothing else there (a discriminated
 * union given a `kind` none of its members has): one `enum` issue at that key listing the consts, in the
 * combinator's place (its own schema path, so that it is not taken for one of its branches' issues).
 */
function discriminatorIssue(key: string, branches: Branches): SchemaIssue | undefined {
  const all = [...branches.values()];
  const name = all[0]?.constKey;
  if (name === undefined || !all.every((branch) => branch.constKey === name && branch.consts === 1))
    return undefined;
  const [schemaPath, instancePath] = key.split("\u0000") as [string, string];
  return {
    instancePath: `${instancePath}/${name}`,
    keyword: "enum",
    schemaPath,
    params: { allowedValues: all.map((branch) => branch.constValue) },
    message: "must be equal to one of the allowed values",
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
