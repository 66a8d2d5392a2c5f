import { type JsonValue, markDeeplyFrozen, rememberFrozenCopy, utf8Length } from "@obelisk/core";
import { noUnfrozenNodes } from "./frozen-state.js";
import { valueAt } from "./settle-below.js";
import type { ThreadModel } from "./thread-model.js";

/** A container being frozen: its members, the next one to visit, and its height so far. */
interface Frame {
  readonly node: object;
  readonly members: readonly JsonValue[];
  index: number;
  height: number;
}

const frameOf = (node: object): Frame => ({
  node,
  members: Array.isArray(node) ? node : Object.values(node as Record<string, JsonValue>),
  index: 0,
  height: 1,
});

/**
 * Deeply freezes a value the store just parsed from its own file (nobody else holds any of its nodes),
 * children before parents, measuring each container's height; each container in `sizes` (with its JSON
 * size in bytes) is then remembered as one of core's frozen copies (`rememberFrozenCopy`): a call reading
 * it keeps it in its record as it is (`toJsonValue` returns it at once), as the memory store's values are,
 * instead of copying all of it per reading call (stop 42, review q2 #2).
 */
function freezeMeasured(root: object, sizes: ReadonlyMap<object, number>): void {
  const stack: Frame[] = [frameOf(root)];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.index < frame.members.length) {
      const member = frame.members[frame.index++];
      if (typeof member === "object" && member !== null) stack.push(frameOf(member));
      continue;
    }
    stack.pop();
    Object.freeze(frame.node);
    const parent = stack[stack.length - 1];
    if (parent !== undefined && frame.height >= parent.height) parent.height = frame.height + 1;
    const bytes = sizes.get(frame.node);
    if (bytes !== undefined) {
      // everything below is frozen now (children first): deeply frozen, as a remembered copy must be
      markDeeplyFrozen(frame.node);
      rememberFrozenCopy(frame.node as JsonValue, bytes, frame.height);
    }
  }
  markDeeplyFrozen(root);
}

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
