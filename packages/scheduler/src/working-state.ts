import {
  applyOutputInPlace,
  FORBIDDEN_SEGMENTS,
  indexPastEndMessage,
  type JsonValue,
  type OutputMethod,
  type Path,
  pathsOverlap,
  setOwn,
} from "@obelisk/core";
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
    if (segment > parent.length) return indexPastEndMessage(segment, parent.length);
    parent[segment] = value;
    return undefined;
  }
  setOwn(parent, String(segment), value);
  return undefined;
}

/**
 * Applies one write to the working state in place, in O(path depth + size of the combined value):
 * descends through containers the runner owns, then lets core's `applyOutputInPlace` (the one
 * implementation of the output methods) combine the rest and puts its result into the owned parent. Frozen
 * values (initial state, tool outputs, anything a resolved parameter froze) are never mutated: they are
 * copied once, and the copy is owned from then on. Pushes and concats onto an owned array append in place;
 * merges and assigns into an owned object set its keys in place (n merges into one object cost O(n) in all,
 * not O(n²): 8,000 took 45 s before, see docs/performance/scheduler.md, stop 36).
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
  const rest = depth + 1 === path.length ? NO_SEGMENTS : path.slice(depth + 1);
  // `set` at the last segment is the value itself (what applyOutput answers, without its result object):
  // what the parent held there is not read
  if (rest.length === 0 && method === "set") return place(parent, segment, value);
  const current = childAt(parent, segment);
  if (rest.length === 0) {
    if (Array.isArray(current) && isOwned(current)) {
      if (method === "push") {
        current.push(value);
        return undefined;
      }
      if (method === "concat" && Array.isArray(value)) {
        for (const item of value) current.push(item);
        return undefined;
      }
    }
  }
  const applied = applyOutputInPlace(current, rest, method, value);
  if (!applied.ok) return applied.message;
  return place(parent, segment, applied.value);
}

/**
 * Applies writes in order, appends onto frozen arrays deferred in `appends`; the first failure is returned
 * (the store refused it too, so none is expected).
 */
export function writeAllInPlace(
  root: Record<string, JsonValue>,
  writes: readonly StateWrite[],
  appends: DeferredAppends,
): string | undefined {
  for (let at = 0; at < writes.length; at++) {
    const write = writes[at] as StateWrite;
    const failure = appends.write(root, write.path, write.method, write.value);
    if (failure !== undefined) return `${write.reference}: ${failure}`;
  }
  return undefined;
}

/** True when two paths are the same segments (`0` and `"0"` differ, as they do in containers). */
function samePath(a: Path, b: Path): boolean {
  if (a.length !== b.length) return false;
  for (let at = 0; at < a.length; at++) if (a[at] !== b[at]) return false;
  return true;
}

/**
 * True when `path` leads through containers to a frozen array, and is one the output engine writes (no
 * forbidden segment, no negative index).
 */
function leadsToFrozenArray(root: Container, path: Path): boolean {
  let node: JsonValue | undefined = root as JsonValue;
  for (let depth = 0; depth < path.length; depth++) {
    const segment = path[depth] as string | number;
    if (typeof segment === "number" ? segment < 0 : FORBIDDEN_SEGMENTS.has(segment)) return false;
    if (typeof node !== "object" || node === null) return false;
    node = childAt(node as Container, segment);
  }
  return Array.isArray(node) && Object.isFrozen(node);
}

/** Makes the containers above `path` owned (a frozen one is copied into its owned parent, as a write would). */
function ownContainersAbove(root: Container, path: Path): void {
  let parent: Container = root;
  for (let depth = 0; depth < path.length - 1; depth++) {
    const segment = path[depth] as string | number;
    let child = childAt(parent, segment) as Container;
    if (!isOwned(child as JsonValue)) {
      child = Array.isArray(child) ? child.concat() : { ...child };
      place(parent, segment, child as JsonValue);
    }
    parent = child;
  }
}

/** Appends onto a frozen array, waiting: the items, and the path whose array they go onto. */
interface DeferredAppend {
  readonly path: Path;
  readonly items: JsonValue[];
}

/**
 * Pushes and concats onto a frozen array (a list of the thread's snapshot) that the run has not read since:
 * the array is not copied for them until something reads or writes at, above or below its path, so a run
 * that appends to a list of n items and never reads it costs O(items appended), not O(n) (stop 31). The
 * tree keeps the frozen array meanwhile: readers {@link settle} first.
 */
export class DeferredAppends {
  private readonly waiting: DeferredAppend[] = [];

  /** True when no append waits (the common case: reads check this first). */
  get empty(): boolean {
    return this.waiting.length === 0;
  }

  /**
   * Applies one write (as {@link writeInPlace} does) or defers it: a push, or a concat of an array, onto a
   * frozen array (the containers above it are made owned, as the write would), or onto one already waiting. The appends waiting at,
   * above or below its path are applied first otherwise.
   */
  write(
    root: Record<string, JsonValue>,
    path: Path,
    method: OutputMethod,
    value: JsonValue,
  ): string | undefined {
    const appends = method === "push" || (method === "concat" && Array.isArray(value));
    let deferred: DeferredAppend | undefined;
    if (appends) for (const waiting of this.waiting) if (samePath(waiting.path, path)) deferred = waiting;
    if (deferred === undefined) {
      if (this.waiting.length > 0) this.settle(root, path);
      if (!appends || !leadsToFrozenArray(root, path)) return writeInPlace(root, path, method, value);
      ownContainersAbove(root, path);
      deferred = { path, items: [] };
      this.waiting.push(deferred);
    }
    if (method === "push") deferred.items.push(value);
    else for (const item of value as readonly JsonValue[]) deferred.items.push(item);
    return undefined;
  }

  /** Applies the waiting appends at, above or below `path` (every one when it is undefined), copying each array once. */
  settle(root: Record<string, JsonValue>, path?: Path): void {
    const waiting = this.waiting;
    for (let at = waiting.length - 1; at >= 0; at--) {
      const deferred = waiting[at] as DeferredAppend;
      if (path !== undefined && !pathsOverlap(path, deferred.path)) continue;
      waiting.splice(at, 1);
      const failure = writeInPlace(root, deferred.path, "concat", deferred.items);
      if (failure !== undefined) throw new Error(`a deferred append could not be applied: ${failure}`);
    }
  }
}
