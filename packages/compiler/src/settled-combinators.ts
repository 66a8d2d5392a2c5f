import type { ErrorObject } from "ajv";
import { closingErrors, type Running, typePicked } from "./running-combinator.js";
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
  const stepsByPath = new Map<string, readonly Step[] | undefined>();
  let cut = end;
  for (let index = 0; index < cut; index++) {
    const error = errors[index] as ErrorObject;
    if (typeof error.schemaPath !== "string" || typeof error.instancePath !== "string") cut = index;
    else if (TAKES_BACK_INSIDE.test(error.schemaPath)) {
      // the errors of one array's items share their schema path: it is walked once
      let steps = stepsByPath.get(error.schemaPath);
      if (steps === undefined && !stepsByPath.has(error.schemaPath)) {
        steps = stepsOf(error.schemaPath, schema);
        stepsByPath.set(error.schemaPath, steps);
      }
      if (steps === undefined || !settles(error, index, steps, value, closed, running)) cut = index;
    }
  }
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

/** A schema path's segments, unescaped (ajv URI-encodes names); undefined for one that is not URI-encoded. */
function unescaped(parts: readonly string[]): string[] | undefined {
  try {
    return parts.map((part) => decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~"));
  } catch {
    return undefined;
  }
}

/** A keyword above an error that may take it back, as its schema path places it. */
interface Step {
  readonly keyword: string;
  /** The keyword's own schema path (`#/properties/xs/anyOf`). */
  readonly schemaPath: string;
  /** How many levels below the checked value the keyword applies. */
  readonly depth: number;
  /** The schema object holding the keyword. */
  readonly node: unknown;
  /** The branch (`anyOf/<k>`) the error sits in. */
  readonly key: string | undefined;
}

/** A schema path with a keyword that may take back the errors below it (not as the error's own keyword). */
const TAKES_BACK_INSIDE = /\/(?:anyOf|oneOf|contains)\//;

/**
 * The keywords that may take back an error at `schemaPath` (outermost first), found by walking the path
 * from the root of `schema`; undefined when one sits below a keyword the walk does not know (its depth in
 * the value is then unknown). The last segment is the error's own keyword (or a branch's index, for a
 * `false` branch).
 */
function stepsOf(schemaPath: string, schema: unknown): readonly Step[] | undefined {
  const raw = schemaPath.split("/");
  const path = unescaped(raw);
  if (raw[0] !== "#" || path === undefined) return undefined;
  const steps: Step[] = [];
  let node: unknown = schema;
  let depth = 0;
  for (let at = 1; at < path.length - 1; at++) {
    const keyword = path[at] as string;
    const withKey = DOWN_WITH_KEY.has(keyword) || STAY_WITH_KEY.has(keyword);
    if (!withKey && !DOWN.has(keyword) && !STAY.has(keyword))
      return path.slice(at).some((segment) => TAKES_BACK.has(segment)) ? undefined : steps;
    const key = withKey ? (path[at + 1] as string) : undefined;
    if (TAKES_BACK.has(keyword))
      steps.push({ keyword, schemaPath: raw.slice(0, at + 1).join("/"), depth, node, key });
    if (DOWN.has(keyword) || DOWN_WITH_KEY.has(keyword)) depth++;
    node = isPlainObject(node) ? node[keyword] : undefined;
    if (key !== undefined) {
      node = isPlainObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
      at++;
    }
  }
  return steps;
}

/** The JSON Pointer of the first `depth` levels of `pointer`, or undefined when it has fewer. */
function pointerPrefix(pointer: string, depth: number): string | undefined {
  let end = 0;
  for (let level = 0; level < depth; level++) {
    if (end >= pointer.length) return undefined;
    const next = pointer.indexOf("/", end + 1);
    end = next < 0 ? pointer.length : next;
  }
  return pointer.slice(0, end);
}

/**
 * Whether `error` (the `index`th), below the keywords `steps`, is settled: each of them has failed before
 * the stop (`closed`), or is an `anyOf` / `oneOf` whose branch its value's type decides (`typePicked`),
 * recorded as running (`running`) with the first error in the picked branch.
 */
function settles(
  error: ErrorObject,
  index: number,
  steps: readonly Step[],
  value: unknown,
  closed: ReadonlySet<string>,
  running: Map<string, Running>,
): boolean {
  for (const step of steps) {
    const instancePath = pointerPrefix(error.instancePath, step.depth);
    if (instancePath === undefined) return false;
    const place = `${step.schemaPath}\u0000${instancePath}`;
    if (closed.has(place)) continue;
    const { keyword, node, key } = step;
    if (keyword === "contains" || key === undefined || !isPlainObject(node)) return false;
    let combinator = running.get(place);
    if (combinator === undefined) {
      const picked = typePicked(node[keyword], valueAt(value, instancePath));
      if (picked === undefined) return false;
      combinator = {
        keyword: keyword as "anyOf" | "oneOf",
        schemaPath: step.schemaPath,
        instancePath,
        branches: node[keyword] as Record<string, unknown>[],
        picked,
        pickedKey: String(picked),
        first: index,
        pickedFirst: undefined,
      };
      running.set(place, combinator);
    }
    if (combinator.pickedKey === key) combinator.pickedFirst ??= index;
  }
  return true;
}

/** The value at a JSON Pointer, or undefined. */
function valueAt(value: unknown, pointer: string): unknown {
  const tokens = pointer === "" ? [] : pointer.slice(1).split("/");
  let data = value;
  for (const token of tokens) data = childOf(data, token.replaceAll("~1", "/").replaceAll("~0", "~"));
  return data;
}

/** The value at `key` of an object or array, or undefined. */
function childOf(data: unknown, key: string): unknown {
  if (Array.isArray(data)) return /^(?:0|[1-9][0-9]*)$/.test(key) ? data[Number(key)] : undefined;
  return isPlainObject(data) && Object.hasOwn(data, key) ? data[key] : undefined;
}
