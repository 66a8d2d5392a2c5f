import { type JsonValue, markDeeplyFrozen, rememberFrozenCopy, utf8Length } from "@obelisk/core";
import { noUnfrozenNodes } from "./frozen-state.js";
import { valueAt } from "./settle-below.js";
import type { ThreadModel } from "./thread-model.js";

/**
 * Deeply freezes a value the store just parsed from its own file (nobody else holds any of its nodes),
 * children before parents, measuring each container's height; each container in `sizes` (with its JSON
 * size in bytes) is then remembered as one of core's frozen copies (`rememberFrozenCopy`): a call reading
 * it keeps it in its record as it is (`toJsonValue` returns it at once), as the memory store's values are,
 * instead of copying all of it per reading call (stop 42, review q2 #2).
 */
function freezeMeasured(root: object, sizes: ReadonlyMap<object, number>): void {
  // one frame per open container, in parallel stacks (no object per frame): the container, its members
  // (an array is its own list), the next member to visit, its height so far
  const nodes: object[] = [root];
  const lists: (readonly JsonValue[])[] = [membersOf(root)];
  const next: number[] = [0];
  const heights: number[] = [1];
  let top = 0;
  while (top >= 0) {
    const list = lists[top] as readonly JsonValue[];
    const at = next[top] as number;
    if (at < list.length) {
      next[top] = at + 1;
      const member = list[at];
      if (typeof member === "object" && member !== null) {
        top++;
        nodes[top] = member;
        lists[top] = membersOf(member);
        next[top] = 0;
        heights[top] = 1;
      }
      continue;
    }
    const node = nodes[top] as object;
    const height = heights[top] as number;
    Object.freeze(node);
    top--;
    if (top >= 0 && height >= (heights[top] as number)) heights[top] = height + 1;
    const bytes = sizes.get(node);
    if (bytes !== undefined) {
      // everything below is frozen now (children first): deeply frozen, as a remembered copy must be
      markDeeplyFrozen(node);
      rememberFrozenCopy(node as JsonValue, bytes, height);
    }
  }
  markDeeplyFrozen(root);
}

/** A container's members: an array itself, an object's values. */
const membersOf = (node: object): readonly JsonValue[] =>
  Array.isArray(node) ? node : Object.values(node as Record<string, JsonValue>);

/**
 * Deeply freezes the state of a model just loaded from the file and remembers each state variable's
 * container value as a frozen copy, with the size its metadata records ({@link freezeMeasured}). The model
 * then has no unfrozen node (what the first read of its state would otherwise freeze).
 */
export function freezeLoadedState(model: ThreadModel): void {
  const sizes = new Map<object, number>();
  for (const entry of model.variables.values()) {
    if (entry.meta.scope !== "state") continue;
    const value = valueAt(model.state, entry.path);
    if (typeof value === "object" && value !== null) sizes.set(value, entry.meta.bytes);
  }
  freezeMeasured(model.state, sizes);
  model.unfrozen = noUnfrozenNodes();
}

/**
 * A stored call output just parsed from `text` (its compact JSON, as the store wrote it), deeply frozen and,
 * when a container, remembered as a frozen copy of `text`'s UTF-8 size ({@link freezeMeasured}).
 */
export function frozenLoadedOutput(value: JsonValue, text: string): JsonValue {
  if (typeof value === "object" && value !== null)
    freezeMeasured(value, new Map([[value, utf8Length(text)]]));
  return value;
}
