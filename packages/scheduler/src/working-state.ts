import { applyOutput, type JsonValue, type OutputMethod, type Path, setOwn } from "@obelisk/core";
import type { StateWrite } from "@obelisk/state";

type Container = Record<string, JsonValue> | JsonValue[];

/** The rest of a path written at its last segment (shared: most writes target an owned parent). */
const NO_SEGMENTS: Path = Object.freeze([]);

/** True for a container the working state owns (unfrozen: created by the runner, never seen by a tool). */
export function isOwned(value: JsonValue | undefined): value is Container & JsonValue {
  return typeof value === "object" && value !== null && !Object.isFrozen(value);
}

/** The child of an owned container at one segment, if present. */
function childAt(parent: Container, segment: string | number): JsonValue | undefined {
  if (Array.isArray(parent)) return typeof segment === "number" ? parent[segment] : undefined;
  const key = String(segment);
  return Object.hasOwn(parent, key) ? parent[key] : undefined;
}

/** Puts a value into an owned container, with the same checks `applyOutput` makes for that step. */
function place(parent: Container, segment: string | number, value: JsonValue): string | undefined {
  if (Array.isArray(parent)) {
    if (typeof segment !== "number") return `cannot write the key "${segment}" into an array`;
    if (segment > parent.length)
      return `cannot write at index ${segment} of an array of length ${parent.length}`;
    parent[segment] = value;
    return undefined;
  }
  setOwn(parent, String(segment), value);
  return undefined;
}

/**
 * Applies one write to the working state in place, in O(path depth + size of the combined value):
 * descends through containers the runner owns, then lets `applyOutput` (the one implementation of the
 * output methods) combine the rest immutably and puts its result into the owned parent. Frozen values
 * (initial state, tool outputs) are never mutated. Pushes onto an owned array append in place.
 */
export function writeInPlace(
  root: Record<string, JsonValue>,
  path: Path,
  method: OutputMethod,
  value: JsonValue,
): string | undefined {
  if (path.length === 0) return "cannot write the state root";
  let parent: Container = root;
  let depth = 0;
  for (; depth < path.length - 1; depth++) {
    const child = childAt(parent, path[depth] as string | number);
    if (!isOwned(child)) break;
    parent = child;
  }
  const segment = path[depth] as string | number;
  const current = childAt(parent, segment);
  const rest = depth + 1 === path.length ? NO_SEGMENTS : path.slice(depth + 1);
  if (rest.length === 0) {
    // `set` at the last segment is the value itself (what applyOutput answers, without its result object).
    if (method === "set") return place(parent, segment, value);
    if (method === "push" && Array.isArray(current) && isOwned(current)) {
      current.push(value);
      return undefined;
    }
  }
  const applied = applyOutput(current, rest, method, value);
  if (!applied.ok) return applied.message;
  return place(parent, segment, applied.value);
}

/** Applies writes in order; the first failure is returned (the store refused it too, so none is expected). */
export function writeAllInPlace(
  root: Record<string, JsonValue>,
  writes: readonly StateWrite[],
): string | undefined {
  for (let at = 0; at < writes.length; at++) {
    const write = writes[at] as StateWrite;
    const failure = writeInPlace(root, write.path, write.method, write.value);
    if (failure !== undefined) return `${write.reference}: ${failure}`;
  }
  return undefined;
}
