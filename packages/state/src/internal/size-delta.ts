import type { JsonValue, Path } from "@obelisk/core";
import { jsonByteSize, jsonTypeOf } from "@obelisk/core";
import type { StateWrite } from "../store-types.js";
import type { VariableEntry } from "./thread-model.js";

/**
 * What one write did to the JSON size of every container above the place it changed: the value at its
 * path replaced, or a member (key or element) added to the deepest container that was there. Each
 * container on the way down to that place grew (or shrank) by the same `bytes`, so a variable above the
 * written path gets its new size from its old one without walking its value (SPEC §8: metadata without
 * serialising a whole large value).
 */
export interface SizeDelta {
  /** JSON bytes every container above the change gained (negative when it lost some). */
  readonly bytes: number;
  /** Depth (path length) of the container a member was added to; -1 when the written path was there. */
  readonly grewAt: number;
  /** JSON bytes of the value now at the written path, when measured here. */
  readonly written: number | undefined;
}

/** The state at a written path before the write: how deep the path exists and what it holds there. */
export interface BeforeWrite {
  /** Segments of the path that exist (the path's length when the value is there). */
  readonly depth: number;
  /** JSON bytes of the value at the path (when it is there). */
  readonly bytes: number;
  /** Its length when it is an array, else -1. */
  readonly length: number;
  /** Whether the deepest existing container had a member (when the path is not there). */
  readonly filled: boolean;
  /** Whether the deepest existing container is an array (when the path is not there). */
  readonly inArray: boolean;
}

/** True when an object has an own key (without listing its keys when it has one). */
function hasKey(value: object): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return true;
  return false;
}

/**
 * Looks at the value at `write.path` before it is written (as core's `writeOutput` walks: an index of an
 * array, an own key of an object). `previous`, the variable at the path when its facts are current, gives
 * the size without walking the value; so does `holder`, the variable at the deepest existing container,
 * whether that container is empty.
 */
export function beforeWrite(
  state: JsonValue,
  write: StateWrite,
  previous: VariableEntry | undefined,
  holder: (depth: number) => VariableEntry | undefined,
): BeforeWrite {
  const { path } = write;
  let node: JsonValue = state;
  let depth = 0;
  for (; depth < path.length; depth++) {
    const segment = path[depth];
    let next: JsonValue | undefined;
    if (Array.isArray(node)) next = typeof segment === "number" ? node[segment] : undefined;
    else if (typeof node === "object" && node !== null) {
      const key = String(segment);
      next = Object.hasOwn(node, key) ? (node as Record<string, JsonValue>)[key] : undefined;
    }
    if (next === undefined) break;
    node = next;
  }
  if (depth === path.length) {
    // the variable's facts when they describe this value (a type and length that differ would say not)
    const current =
      previous !== undefined &&
      previous.meta.type === jsonTypeOf(node) &&
      (!Array.isArray(node) || previous.meta.count === node.length);
    const bytes = current ? previous.meta.bytes : jsonByteSize(node);
    return { depth, bytes, length: Array.isArray(node) ? node.length : -1, filled: true, inArray: false };
  }
  const inArray = Array.isArray(node);
  const count = Array.isArray(node) ? node.length : holder(depth)?.meta.count;
  const filled = count !== undefined ? count > 0 : typeof node === "object" && node !== null && hasKey(node);
  return { depth, bytes: 0, length: -1, filled, inArray };
}

/** The value at the first `depth` segments of `path` (every one of them there). */
function valueAtDepth(state: JsonValue, path: Path, depth: number): JsonValue {
  let node = state;
  for (let at = 0; at < depth; at++) {
    const segment = path[at] as string | number;
    node = (
      Array.isArray(node) ? node[segment as number] : (node as Record<string, JsonValue>)[segment]
    ) as JsonValue;
  }
  return node;
}

/**
 * The {@link SizeDelta} of a write applied to `state` (the state after it), from what was there before
 * (`before`) and the JSON size of the written value (`bytes`). Costs the size of what the write placed:
 * the written value, or the value at the path after a `merge` or `assign` (walked), never the containers
 * above.
 */
export function sizeDelta(
  state: JsonValue,
  write: StateWrite,
  before: BeforeWrite,
  bytes: number,
): SizeDelta {
  const { path, method, value } = write;
  if (before.depth === path.length) {
    let written: number;
    if (method === "set") written = bytes;
    else if (method === "push") written = before.bytes + bytes + (before.length > 0 ? 1 : 0);
    else if (method === "concat" && Array.isArray(value))
      written = value.length === 0 ? before.bytes : before.bytes + bytes - 2 + (before.length > 0 ? 1 : 0);
    else written = jsonByteSize(valueAtDepth(state, path, path.length));
    return { bytes: written - before.bytes, grewAt: -1, written };
  }
  // a member added to the container at `depth`: the written value, or the parents created down to it
  const { depth } = before;
  const added =
    depth === path.length - 1
      ? method === "push"
        ? bytes + 2
        : bytes
      : jsonByteSize(valueAtDepth(state, path, depth + 1));
  const key = before.inArray ? 0 : jsonByteSize(String(path[depth])) + 1;
  return { bytes: key + added + (before.filled ? 1 : 0), grewAt: depth, written: undefined };
}
