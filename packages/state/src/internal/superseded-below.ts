import type { JsonObject, JsonValue, Path, PathSegment } from "@obelisk/core";
import { assertNever, DEFAULT_KINDS, parseReference, valueAtPath } from "@obelisk/core";
import type { StateWrite } from "../store-types.js";
import type { ThreadModel } from "./thread-model.js";

/**
 * A backend's lookup of the state tombstones of a model's thread strictly below a write's path (its
 * `reference` is the path's canonical text): their references (a shared empty array when there are none).
 * Asked only while the model has state tombstones.
 */
export type TombstonesBelow = (model: ThreadModel, write: StateWrite) => readonly string[];

/** Any depth: a tombstone names a path that was written, whatever the limits of the plan that wrote it. */
const ANY_DEPTH = { maxPathDepth: Number.MAX_SAFE_INTEGER };

/** The path of a state reference a store formatted (undefined: not one). */
export function statePathOf(reference: string): Path | undefined {
  const parsed = parseReference(reference, DEFAULT_KINDS, ANY_DEPTH);
  return parsed.ok && parsed.value.kind === "state" ? parsed.value.path : undefined;
}

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The object key a segment writes (an index written into an object writes its digits as the key). */
const keyOf = (segment: PathSegment | undefined): string | undefined =>
  typeof segment === "number" ? String(segment) : segment;

/**
 * Adds to `into` (created on the first) the tombstones of `found`, all strictly below `write.path`, that the
 * write supersedes, judged against `state`, the state the write is applied to: what is at a superseded path
 * afterwards (a value, a `null`, or nothing) is the write's doing, not an eviction's. A `set` replaces all
 * below it, and so does any method on a missing target; `assign` replaces the keys it names; a deep `merge`
 * what it places as it is (not where both sides are objects); `push` and `concat` only the positions they
 * append (the holes before them stay). Decision record 0013.
 */
export function supersededBelow(
  found: readonly string[],
  state: JsonValue,
  write: StateWrite,
  into: string[] | undefined,
): string[] | undefined {
  if (found.length === 0) return into;
  const target = valueAtPath(state, write.path);
  const all = write.method === "set" || target === undefined;
  let cleared = into;
  for (let index = 0; index < found.length; index++) {
    const reference = found[index] as string;
    if (!all && !replaces(target, write, statePathOf(reference))) continue;
    if (cleared === undefined) cleared = [reference];
    else cleared.push(reference);
  }
  return cleared;
}

/** True when an accumulating write on the existing `target` replaces what is at `path` (below the write's). */
function replaces(target: JsonValue, write: StateWrite, path: Path | undefined): boolean {
  if (path === undefined) return false;
  const at = write.path.length;
  const segment = path[at];
  switch (write.method) {
    case "push":
    case "concat":
      return Array.isArray(target) && typeof segment === "number" && segment >= target.length;
    case "assign": {
      const key = keyOf(segment);
      return key !== undefined && isObject(write.value) && Object.hasOwn(write.value, key);
    }
    case "merge":
      return mergeReplaces(target, write.value, path, at);
    case "set":
      return true;
    default:
      return assertNever(write.method, "unknown output method");
  }
}

/** True when deep-merging `incoming` into `present` places a value as it is on the way to `path[at…]`. */
function mergeReplaces(present: JsonValue | undefined, incoming: JsonValue, path: Path, at: number): boolean {
  for (let depth = at; depth < path.length; depth++) {
    const key = keyOf(path[depth]) as string;
    if (!isObject(incoming) || !Object.hasOwn(incoming, key)) return false;
    const next = incoming[key] as JsonValue;
    const here = isObject(present) && Object.hasOwn(present, key) ? present[key] : undefined;
    if (!isObject(here) || !isObject(next)) return true;
    present = here;
    incoming = next;
  }
  // merged into an object at the path itself: it holds a value now
  return true;
}
