import { assertNever } from "./assert-never.js";
import { isJsonArray, isJsonObject } from "./json-container.js";
import type { JsonObject, JsonValue } from "./json-value.js";
import type { OutputMethod } from "./output-methods.js";
import { FORBIDDEN_SEGMENTS, type Path, type PathSegment } from "./path.js";
import { COPY_ON_WRITE, type WritePolicy } from "./write-policy.js";

/** The outcome of writing a value: the new root, or why the write is impossible. */
export type ApplyOutputResult =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly message: string };

/** Why a write is impossible (internal: the write steps return a value or this, not a result object). */
class WriteFailure {
  constructor(readonly message: string) {}
}

/** The new value below a step, or why the write is impossible (no result object per level). */
type Step = JsonValue | WriteFailure;

const fail = (message: string): WriteFailure => new WriteFailure(message);

/**
 * Why a write at `index` of an array of `length` fails (past its end), and what a write may do instead:
 * replace an item, add one at the end, or append with `push`. Built only for the failure.
 */
export function indexPastEndMessage(index: number, length: number): string {
  const may =
    length === 0
      ? "the array is empty: write at index 0"
      : `an index replaces an item (0 to ${length - 1}) or adds one at the end (${length})`;
  return `cannot write at index ${index} of an array of length ${length}: ${may}, or append with _outputMethod "push"`;
}

/**
 * Writes `value` at `path` below `root` with an output method (SPEC §3) and returns the new root.
 * Immutable with structural sharing: inputs are never mutated; untouched branches are reused.
 * Missing intermediate objects are created (a missing array only for index 0, which appends).
 * Fails (never throws) when writing through a non-object, on a negative or out-of-range index, on a
 * forbidden segment, or when the method does not fit the existing value:
 * - `set` replaces;
 * - `merge` deep-merges when both are objects (nested non-objects and arrays are replaced); a missing
 *   target is set; any other combination fails;
 * - `assign` shallow-merges objects; a missing target is set; the value must be an object;
 * - `push` appends the value to an array (missing → `[value]`);
 * - `concat` appends the items of an array value (missing → a copy of the value).
 */
export function applyOutput(
  root: JsonValue | undefined,
  path: Path,
  method: OutputMethod,
  value: JsonValue,
): ApplyOutputResult {
  return writeOutput(root, path, method, value, COPY_ON_WRITE);
}

/**
 * The one implementation of output writes, parameterised by how containers are obtained for change
 * (copy on write, or in place for owned containers; see `write-policy.ts`). Every check happens on the way
 * down and before a combine changes anything, so a failed write changes nothing.
 */
export function writeOutput(
  root: JsonValue | undefined,
  path: Path,
  method: OutputMethod,
  value: JsonValue,
  policy: WritePolicy,
): ApplyOutputResult {
  // indexed: a for…of here allocated an iterator per write under the store's commit (sampled, stop 37)
  for (let index = 0; index < path.length; index++) {
    const segment = path[index] as PathSegment;
    if (typeof segment === "string" && FORBIDDEN_SEGMENTS.has(segment)) {
      return { ok: false, message: `the path segment "${segment}" is not allowed` };
    }
    if (typeof segment === "number" && (!Number.isSafeInteger(segment) || segment < 0)) {
      const message = `cannot write at index ${segment}: only non-negative integer indices can be written`;
      return { ok: false, message };
    }
  }
  const written = writeAt(root, path, 0, method, value, policy);
  return written instanceof WriteFailure
    ? { ok: false, message: written.message }
    : { ok: true, value: written };
}

/** Writes below `current` starting at `path[depth]`. */
function writeAt(
  current: JsonValue | undefined,
  path: Path,
  depth: number,
  method: OutputMethod,
  value: JsonValue,
  policy: WritePolicy,
): Step {
  if (depth === path.length) return combine(current, method, value, policy);
  const segment = path[depth] as PathSegment;
  if (current === undefined) current = typeof segment === "number" ? [] : {};
  if (isJsonArray(current)) {
    if (typeof segment !== "number") return fail(`cannot write the key "${segment}" into an array`);
    if (segment > current.length) {
      return fail(indexPastEndMessage(segment, current.length));
    }
    const child = writeAt(current[segment], path, depth + 1, method, value, policy);
    if (child instanceof WriteFailure) return child;
    if (child === current[segment] && policy.owns(current)) return current;
    const target = policy.array(current);
    policy.put(target, segment, child);
    return target;
  }
  if (isJsonObject(current)) {
    const key = String(segment);
    const existing = Object.hasOwn(current, key) ? current[key] : undefined;
    const child = writeAt(existing, path, depth + 1, method, value, policy);
    if (child instanceof WriteFailure) return child;
    if (existing !== undefined && child === existing && policy.owns(current)) return current;
    const target = policy.object(current);
    policy.put(target, key, child);
    return target;
  }
  return fail(`cannot write through ${describe(current)} at segment ${JSON.stringify(segment)}`);
}

/** Combines the existing value at the target with the written value. */
function combine(
  existing: JsonValue | undefined,
  method: OutputMethod,
  value: JsonValue,
  policy: WritePolicy,
): Step {
  switch (method) {
    case "set":
      return value;
    case "merge":
      if (existing === undefined) return value;
      if (isJsonObject(existing) && isJsonObject(value)) return deepMerge(existing, value, policy);
      return fail(`merge needs objects on both sides, found ${describe(existing)} and ${describe(value)}`);
    case "assign": {
      if (!isJsonObject(value)) return fail(`assign needs an object value, found ${describe(value)}`);
      if (existing === undefined) return value;
      if (!isJsonObject(existing))
        return fail(`assign needs an object at the path, found ${describe(existing)}`);
      const target = policy.object(existing);
      for (const key of Object.keys(value)) policy.put(target, key, value[key] as JsonValue);
      return target;
    }
    case "push":
      if (existing === undefined) return [value];
      if (!isJsonArray(existing)) return fail(`push needs an array at the path, found ${describe(existing)}`);
      return policy.append(existing, [value]);
    case "concat":
      if (!isJsonArray(value)) return fail(`concat needs an array value, found ${describe(value)}`);
      if (existing === undefined) return value.slice();
      if (!isJsonArray(existing))
        return fail(`concat needs an array at the path, found ${describe(existing)}`);
      return policy.append(existing, value);
    default:
      return assertNever(method, "unknown output method");
  }
}

/** Deep merge: keys of `source` win; nested objects merge; arrays and other values replace. */
function deepMerge(target: JsonObject, source: JsonObject, policy: WritePolicy): JsonObject {
  const result = policy.object(target);
  for (const key of Object.keys(source)) {
    const incoming = source[key] as JsonValue;
    const present = Object.hasOwn(target, key) ? target[key] : undefined;
    const merged =
      isJsonObject(present) && isJsonObject(incoming) ? deepMerge(present, incoming, policy) : incoming;
    if (merged !== present || !policy.owns(result)) policy.put(result, key, merged);
  }
  return result;
}

/** Short description of a value's JSON type for messages. */
function describe(value: JsonValue | undefined): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (isJsonArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
