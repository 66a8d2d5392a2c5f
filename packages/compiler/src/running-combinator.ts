import type { ErrorObject } from "ajv";
import type { SchemaIssue } from "./schema-issue.js";
import { isPlainObject } from "./to-json-schema.js";

/** A combinator still running when the check stopped, and what its value's type says of it. */
export interface Running {
  readonly keyword: "anyOf" | "oneOf";
  readonly schemaPath: string;
  readonly instancePath: string;
  readonly branches: readonly Record<string, unknown>[];
  /** The one branch the value's type does not refuse: `pickedBranches` reads its errors as the violations. */
  readonly picked: number;
  readonly pickedKey: string;
  /** Index of the first error below it, and of the first in the picked branch. */
  readonly first: number;
  pickedFirst: number | undefined;
}

/** JSON types a `type` keyword names; whether one of them is the value's (as ajv checks it). */
function typeAccepts(type: unknown, data: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  return types.some((name) => {
    if (name === "null") return data === null;
    if (name === "array") return Array.isArray(data);
    if (name === "object") return isPlainObject(data);
    if (name === "integer") return Number.isInteger(data);
    return typeof data === name;
  });
}

/**
 * The one branch of `branches` whose `type` does not refuse `data` (or that has none), when each other
 * branch has a `type` that does (and at least two branches): `pickedBranches` then reads that branch's
 * errors as the violations. Undefined otherwise, or for a value that is not JSON.
 */
export function typePicked(branches: unknown, data: unknown): number | undefined {
  if (!Array.isArray(branches) || branches.length < 2) return undefined;
  if (data === undefined || (typeof data === "number" && !Number.isFinite(data))) return undefined;
  const json = data === null || Array.isArray(data) || isPlainObject(data);
  if (!json && !["string", "number", "boolean"].includes(typeof data)) return undefined;
  let open: number | undefined;
  for (let index = 0; index < branches.length; index++) {
    const branch: unknown = branches[index];
    if (!isPlainObject(branch)) return undefined;
    const typed = typeof branch.type === "string" || Array.isArray(branch.type);
    if (typed && !typeAccepts(branch.type, data)) continue;
    if (open !== undefined) return undefined;
    open = index;
  }
  return open;
}

/**
 * The errors ajv adds when `combinator` ends after its picked branch failed: the `type` error of each
 * later branch not already among the first `end` errors, then the combinator's own.
 */
export function closingErrors(
  combinator: Running,
  errors: readonly ErrorObject[],
  end: number,
): SchemaIssue[] {
  const out: SchemaIssue[] = [];
  for (let index = combinator.picked + 1; index < combinator.branches.length; index++) {
    const type = (combinator.branches[index] as Record<string, unknown>).type;
    const schemaPath = `${combinator.schemaPath}/${index}/type`;
    let added = false;
    for (let at = combinator.first; at < end && !added; at++) {
      const error = errors[at] as ErrorObject;
      added = error.schemaPath === schemaPath && error.instancePath === combinator.instancePath;
    }
    if (added) continue;
    const names = Array.isArray(type) ? type.join(",") : String(type);
    out.push({
      instancePath: combinator.instancePath,
      keyword: "type",
      schemaPath,
      params: { type },
      message: `must be ${names}`,
    });
  }
  const oneOf = combinator.keyword === "oneOf";
  out.push({
    instancePath: combinator.instancePath,
    keyword: combinator.keyword,
    schemaPath: combinator.schemaPath,
    params: oneOf ? { passingSchemas: null } : {},
    message: oneOf ? "must match exactly one schema in oneOf" : "must match a schema in anyOf",
  });
  return out;
}
