import type { JsonObject, JsonValue } from "@obelisk/core";

/**
 * The length of `value` as JSON when it is at most `max`, else `max + 1`. The walk stops as soon as `max`
 * is passed, so a 1 MB item costs about `max` work, not its size.
 */
export function jsonLengthWithin(value: JsonValue, max: number): number {
  let used = 0;
  const over = max + 1;
  const walk = (node: JsonValue): boolean => {
    if (typeof node === "string") {
      used += node.length + 2 > max - used ? node.length + 2 : JSON.stringify(node).length;
      return used <= max;
    }
    if (typeof node !== "object" || node === null) {
      used += JSON.stringify(node).length;
      return used <= max;
    }
    used += 2;
    let first = true;
    if (Array.isArray(node)) {
      for (const item of node) {
        used += first ? 0 : 1;
        first = false;
        if (used > max || !walk(item)) return false;
      }
      return used <= max;
    }
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      used += (first ? 0 : 1) + 1;
      first = false;
      if (used > max) return false;
      if (!walk(key) || !walk((node as JsonObject)[key] as JsonValue)) return false;
    }
    return used <= max;
  };
  return walk(value) ? used : over;
}

/** The length of `value` as JSON. */
export const jsonLength = (value: JsonValue): number => JSON.stringify(value).length;
