import type { ErrorObject } from "ajv";
import type { SchemaIssue } from "./schema-issue.js";
import { isPlainObject } from "./to-json-schema.js";

/**
 * Keywords whose errors a later step may take back: a branch of `anyOf` / `oneOf` that another passes,
 * `contains` when a later item matches. An error below one is settled once the keyword's own error (the
 * combinator failed) has been added after it, or, for `anyOf` / `oneOf`, when the value's type decides
 * the branch (see `typePicked`). `not` and `if` create no errors below them (ajv checks them silently).
 */
const TAKES_BACK = new Set(["anyOf", "oneOf", "contains"]);

/** Keywords that go one level down in the value, with a name or index (`properties/a`) or without. */
const DOWN_WITH_KEY = new Set(["properties", "patternProperties", "prefixItems"]);
const DOWN = new Set(["items", "additionalProperties", "contains"]);
/** Keywords that stay at the value, with an index or name (`allOf/0`) or without (`then`). */
const STAY_WITH_KEY = new Set(["allOf", "anyOf", "oneOf", "dependentSchemas"]);
const STAY = new Set(["then", "else"]);

/** A combinator still running when the check stopped, and what its value's type says of it. */
interface Running {
  readonly keyword: "anyOf" | "oneOf";
  readonly schemaPath: string;
  readonly instancePath: string;
  readonly branches: readonly Record<string, unknown>[];
  /** The one branch the value's type does not refuse: `pickedBranches` reads its errors as the violations. */
  readonly picked: number;
  /** Index of the first error below it, and of the first in the picked branch. */
  readonly first: number;
  pickedFirst: number | undefined;
}

/**
 * For the first `end` errors of a check that stopped (of `schema`, on `value`; a schema without
 * references: ajv writes each error's `schemaPath` from the root), where the settled ones end, and the
 * errors ajv would add later that close the combinators still running there: `literalIssues` reads the
 * settled errors and these closing ones as it reads them in the complete list (decision 0085, amended at
 * stop 39). A combinator still running settles when its value's JSON type is refused by the `type` of
 * every branch but one, which has errors: it will fail, and `pickedBranches` will read that branch's
 * errors as the violations. The errors from the first one below a combinator that does not settle are
 * left out: every later error of the run is inside it.
 */
export function settledErrors(
  errors: readonly ErrorObject[],
  end: number,
  schema: unknown,
  value: unknown,
): { readonly end: number; readonly closing: readonly SchemaIssue[] } {
  const closed = new Set<string>();
  for (let index = 0; index < end; index++) {
    const error = errors[index] as ErrorObject;
    if (TAKES_BACK.has(error.keyword)) closed.add(`${error.schemaPath}\u0000${error.instancePath}`);
  }
  const running = new Map<string, Running>();
  let cut = end;
  for (let index = 0; index < cut; index++)
    if (!walk(errors[index] as ErrorObject, index, schema, value, closed, running)) cut = index;
  // A running combinator settles only when its picked branch has errors before the cut (the outer first:
  // cutting at an inner one can leave an outer one without its branch's errors).
  let changed = true;
  while (changed) {
    changed = false;
    for (const combinator of running.values()) {
      if (combinator.first >= cut) continue;
      if (combinator.pickedFirst === undefined || combinator.pickedFirst >= cut) {
        cut = combinator.first;
        changed = true;
      }
    }
  }
  const closing: SchemaIssue[] = [];
  for (const combinator of [...running.values()].reverse())
    if (combinator.first < cut) closing.push(...closingErrors(combinator, errors, cut));
  return { end: cut, closing };
}

/**
 * A schema path's or JSON Pointer's segments, unescaped (ajv URI-encodes a schema path's names); undefined
 * for a segment that is not URI-encoded text.
 */
function unescaped(parts: readonly string[], uri: boolean): string[] | undefined {
  try {
    return parts.map((part) => {
      const text = uri ? decodeURIComponent(part) : part;
      return text.replaceAll("~1", "/").replaceAll("~0", "~");
    });
  } catch {
    return undefined;
  }
}

/**
 * Walks `error`'s schema path from the root, following the value (its instance path) down with it; records
 * each running combinator above the error (`running`). False when the error is not settled: below a
 * `contains` or combinator that has not failed yet and whose branch the type does not decide, or below a
 * keyword the walk does not know with one of those further down.
 */
function walk(
  error: ErrorObject,
  index: number,
  schema: unknown,
  value: unknown,
  closed: ReadonlySet<string>,
  running: Map<string, Running>,
): boolean {
  if (typeof error.schemaPath !== "string" || typeof error.instancePath !== "string") return false;
  const rawPath = error.schemaPath.split("/");
  const rawInstance = error.instancePath.split("/");
  const path = unescaped(rawPath, true);
  const instance = unescaped(rawInstance, false);
  if (rawPath[0] !== "#" || rawInstance[0] !== "" || path === undefined || instance === undefined)
    return false;
  let node: unknown = schema;
  let data: unknown = value;
  let depth = 0;
  // segment 0 is "#" (""); the last is the error's own keyword (or a branch's index, for a `false` branch)
  for (let at = 1; at < path.length - 1; at++) {
    const keyword = path[at] as string;
    const withKey = DOWN_WITH_KEY.has(keyword) || STAY_WITH_KEY.has(keyword);
    if (!withKey && !DOWN.has(keyword) && !STAY.has(keyword))
      return !path.slice(at).some((segment) => TAKES_BACK.has(segment));
    const key = withKey ? (path[at + 1] as string) : undefined;
    if (TAKES_BACK.has(keyword)) {
      const schemaPath = rawPath.slice(0, at + 1).join("/");
      const instancePath = rawInstance.slice(0, depth + 1).join("/");
      const place = `${schemaPath}\u0000${instancePath}`;
      if (!closed.has(place)) {
        if (keyword === "contains" || key === undefined || !isPlainObject(node)) return false;
        let combinator = running.get(place);
        if (combinator === undefined) {
          const picked = typePicked(node[keyword], data);
          if (picked === undefined) return false;
          const branches = node[keyword] as Record<string, unknown>[];
          const kind = keyword as "anyOf" | "oneOf";
          combinator = {
            keyword: kind,
            schemaPath,
            instancePath,
            branches,
            picked,
            first: index,
            pickedFirst: undefined,
          };
          running.set(place, combinator);
        }
        if (String(combinator.picked) === key) combinator.pickedFirst ??= index;
      }
    }
    if (DOWN.has(keyword) || DOWN_WITH_KEY.has(keyword)) {
      depth++;
      if (depth >= instance.length) return false;
      data = childOf(data, instance[depth] as string);
    }
    node = isPlainObject(node) ? node[keyword] : undefined;
    if (key !== undefined) {
      node = isPlainObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
      at++;
    }
  }
  return true;
}

/** The value at `key` of an object or array, or undefined. */
function childOf(data: unknown, key: string): unknown {
  if (Array.isArray(data)) return /^(?:0|[1-9][0-9]*)$/.test(key) ? data[Number(key)] : undefined;
  return isPlainObject(data) && Object.hasOwn(data, key) ? data[key] : undefined;
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
function typePicked(branches: unknown, data: unknown): number | undefined {
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
function closingErrors(combinator: Running, errors: readonly ErrorObject[], end: number): SchemaIssue[] {
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
