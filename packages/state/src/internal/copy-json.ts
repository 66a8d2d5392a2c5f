import type { JsonValue } from "@obelisk/core";
import { markDeeplyFrozen, toJsonValue } from "@obelisk/core";

/** A copied value, or why it is not JSON. */
export type CopyResult =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly message: string };

/**
 * Copies a value into fresh, frozen JSON: what the store keeps is never the object the caller holds, so
 * mutating an input or an output cannot corrupt stored data. Never throws.
 */
export function copyJson(value: unknown): CopyResult {
  const copy = toJsonValue(value);
  return copy.ok ? { ok: true, value: copy.value } : { ok: false, message: copy.message };
}

/**
 * Freezes the nodes of a value that are not frozen yet and stops at frozen ones: after a structurally
 * shared write only the new nodes along the path need freezing, so this costs O(new nodes), not O(state).
 */
export function freezeNew(value: JsonValue): JsonValue {
  const stack: JsonValue[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current !== "object" || current === null || Object.isFrozen(current)) continue;
    Object.freeze(current);
    for (const child of Object.values(current)) stack.push(child);
  }
  // Deeply frozen now (frozen nodes of the tree only hold frozen nodes): the runner's deepFreeze of this
  // snapshot at the start of a run need not walk it again.
  if (typeof value === "object" && value !== null) markDeeplyFrozen(value);
  return value;
}
