import { isJsonArray, isJsonObject } from "./json-container.js";
import type { JsonValue } from "./json-value.js";
import { FORBIDDEN_SEGMENTS, type Path } from "./path.js";

/** The outcome of reading a path: `found` distinguishes an existing `null` from a missing value. */
export type PathLookup = { readonly found: true; readonly value: JsonValue } | { readonly found: false };

const NOT_FOUND: PathLookup = Object.freeze({ found: false });

/**
 * Reads the value at `path` below `root`. Only own properties are read; forbidden segments
 * (`__proto__`, `prototype`, `constructor`) are never found. A negative index counts from the end of an
 * array; a non-negative index also reads an object key spelled the same (`†state.years.2024`).
 */
export function getAtPath(root: JsonValue | undefined, path: Path): PathLookup {
  const value = valueAtPath(root, path);
  return value === undefined ? NOT_FOUND : { found: true, value };
}

/**
 * The value at `path` below `root`, or `undefined` when there is none (a JSON value is never
 * `undefined`): {@link getAtPath} without allocating, for existence checks on hot paths. With `from`,
 * the first `from` segments are taken as already resolved to `root`.
 */
export function valueAtPath(root: JsonValue | undefined, path: Path, from = 0): JsonValue | undefined {
  if (root === undefined) return undefined;
  let current: JsonValue = root;
  for (let index = from; index < path.length; index++) {
    const segment = path[index] as string | number;
    let next: JsonValue | undefined;
    if (isJsonArray(current)) {
      if (typeof segment !== "number" || !Number.isInteger(segment)) return undefined;
      next = current[segment < 0 ? current.length + segment : segment];
    } else if (isJsonObject(current)) {
      const key = typeof segment === "number" ? (segment >= 0 ? String(segment) : undefined) : segment;
      if (key === undefined || FORBIDDEN_SEGMENTS.has(key) || !Object.hasOwn(current, key)) return undefined;
      next = current[key];
    }
    if (next === undefined) return undefined;
    current = next;
  }
  return current;
}
