import {
  isJsonObject,
  type JsonObject,
  type JsonValue,
  markDeeplyFrozen,
  type OutputMethod,
  type Path,
  type PathSegment,
} from "@obelisk/core";
import type { StateWrite } from "../store-types.js";
import { freezeNew } from "./copy-json.js";

/**
 * Most writes remembered between two reads of a thread's state ({@link noteUnfrozenWrites}); past it only
 * their top-level keys are (a read then walks what is below those keys, as it did before stop 31).
 */
const MAX_UNFROZEN_WRITES = 8192;

/**
 * What a model knows of its state's nodes not frozen yet (written since the last read). Commits copy the
 * frozen containers on their write paths (or change unfrozen ones in place) and place written values that
 * are frozen copies, so every unfrozen node lies on the path of a write since the last read, or below its
 * target. `writes` holds those writes (path, method, value); `keys` their top-level keys. Either is
 * `undefined` when not known.
 */
export interface UnfrozenNodes {
  /** Top-level keys written since the last read. */
  keys: Set<string> | undefined;
  /** The writes, flat: `[path, method, value, …]`. */
  writes: (Path | OutputMethod | JsonValue)[] | undefined;
}

/** Nothing known (a loaded model, a lifecycle change): the next read walks the whole state. */
export function unknownNodes(): UnfrozenNodes {
  return { keys: undefined, writes: undefined };
}

/** Nothing unfrozen (a state just read, or a new thread's frozen empty state). */
export function noUnfrozenNodes(): UnfrozenNodes {
  return { keys: new Set(), writes: [] };
}

/** The child of a container at a path segment as the output engine reads it (undefined: none). */
function childAt(parent: JsonValue | undefined, segment: PathSegment): JsonValue | undefined {
  if (typeof parent !== "object" || parent === null) return undefined;
  if (Array.isArray(parent)) return typeof segment === "number" ? parent[segment] : undefined;
  const key = String(segment);
  return Object.hasOwn(parent, key) ? (parent as JsonObject)[key] : undefined;
}

/**
 * Records a commit's writes, so that the next read freezes what they changed and not the rest of their
 * targets (stop 31: a push onto a list of n items otherwise cost a walk of n at every read).
 */
export function noteUnfrozenWrites(nodes: UnfrozenNodes, writes: readonly StateWrite[]): void {
  const keys = nodes.keys;
  let list = nodes.writes;
  if (list !== undefined && list.length + 3 * writes.length > 3 * MAX_UNFROZEN_WRITES) {
    list = undefined;
    nodes.writes = undefined;
  }
  for (let index = 0; index < writes.length; index++) {
    const { path, method, value } = writes[index] as StateWrite;
    const first = path[0];
    if (typeof first !== "string") {
      // (never from a commit: the state is an object) nothing is assumed
      nodes.keys = undefined;
      nodes.writes = undefined;
      return;
    }
    // a top-level key `set` to a scalar leaves no node unfrozen (a read freezes the root): not remembered
    if (path.length === 1 && method === "set" && (typeof value !== "object" || value === null)) continue;
    keys?.add(first);
    list?.push(path, method, value);
  }
}

/**
 * Freezes the containers a deep merge of `value` made or changed under `target` (those where both sides
 * held objects); its other members are frozen: written values, or there before.
 */
function freezeMerged(target: JsonValue, value: JsonValue): void {
  if (!isJsonObject(target) || !isJsonObject(value) || Object.isFrozen(target)) return;
  Object.freeze(target);
  for (const key of Object.keys(value))
    if (Object.hasOwn(target, key)) freezeMerged(target[key] as JsonValue, value[key] as JsonValue);
}

/**
 * Freezes the target of one remembered write (`done`: the targets frozen by this pass). An append or a
 * shallow merge leaves a target whose members are frozen (written values, or there before): only the
 * target is frozen; a deep merge, the containers it merged into; anything else is walked down to its frozen
 * nodes. Runs before any container on a path is frozen (see `freezeState`): a frozen node is then always a
 * deeply frozen one.
 */
function freezeTarget(
  root: JsonObject,
  path: Path,
  method: OutputMethod,
  value: JsonValue,
  done: Set<object>,
): void {
  let node: JsonValue | undefined = root;
  for (let depth = 0; depth < path.length; depth++) {
    node = childAt(node, path[depth] as PathSegment);
    if (typeof node !== "object" || node === null) return; // replaced by a later write: its own entry
  }
  if (done.has(node)) return;
  done.add(node);
  if (Object.isFrozen(node)) return;
  if (method === "push" || method === "concat" || method === "assign") Object.freeze(node);
  else if (method === "merge") freezeMerged(node, value);
  else freezeNew(node);
}

/**
 * Freezes the containers on one remembered write's path, shallowly: their other members are frozen or
 * another write's target (`done`: the containers frozen by this pass).
 */
function freezePath(root: JsonObject, path: Path, done: Set<object>): void {
  let node: JsonValue | undefined = root;
  for (let depth = 0; depth < path.length - 1; depth++) {
    node = childAt(node, path[depth] as PathSegment);
    if (typeof node !== "object" || node === null) return;
    if (done.has(node)) continue;
    done.add(node);
    if (!Object.isFrozen(node)) Object.freeze(node);
  }
}

/**
 * Deeply freezes a state whose unfrozen nodes `nodes` tells: along the remembered writes (O(their paths and
 * new values)), else under the top-level keys written (O(nodes below them)), else the whole state. The root
 * is marked deeply frozen (the runner's `deepFreeze` of the snapshot then returns at once).
 */
export function freezeState(root: JsonObject, nodes: UnfrozenNodes): void {
  const { writes, keys } = nodes;
  if (writes !== undefined) {
    // Every target before any path: a newer write's path froze an older write's target shallowly, which
    // then looked done (set y, merge into y, set y.a: y.o stayed unfrozen). Sets of what this pass froze:
    // `Object.isFrozen` walks every key of a large object, and n writes into one object asked it n times
    // (8,000 assigns: 0.9 s, stop 36).
    const targets = new Set<object>();
    // newest first: an append below an earlier write's target is frozen before that target is walked
    for (let at = writes.length - 3; at >= 0; at -= 3)
      freezeTarget(
        root,
        writes[at] as Path,
        writes[at + 1] as OutputMethod,
        writes[at + 2] as JsonValue,
        targets,
      );
    const containers = new Set<object>();
    for (let at = writes.length - 3; at >= 0; at -= 3) freezePath(root, writes[at] as Path, containers);
  } else if (keys !== undefined) {
    for (const key of keys) if (Object.hasOwn(root, key)) freezeNew(root[key] as JsonValue);
  } else {
    freezeNew(root);
    return;
  }
  Object.freeze(root);
  markDeeplyFrozen(root);
}
