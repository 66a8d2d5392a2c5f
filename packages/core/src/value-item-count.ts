import { codePointLength } from "./code-points.js";
import type { JsonValue } from "./json-value.js";

/** What an item count counts: array items, object keys, or string characters (code points). */
export type ItemUnit = "items" | "keys" | "characters";

/** How many items a value holds, and what they are (SPEC §8). */
export interface ItemCount {
  /** The number of items. */
  readonly count: number;
  /** Array items, object keys, or string characters (code points: an emoji is one). */
  readonly unit: ItemUnit;
}

/** The number of items of an array, object (own keys) or string (characters); undefined otherwise. */
export function itemCountOf(value: JsonValue): number | undefined {
  if (typeof value === "string") return codePointLength(value);
  if (Array.isArray(value)) return value.length;
  if (typeof value === "object" && value !== null) return Object.keys(value).length;
  return undefined;
}

/** What {@link itemCountOf} counts for a value that has a count. */
export function itemUnitOf(value: JsonValue): ItemUnit {
  return typeof value === "string" ? "characters" : Array.isArray(value) ? "items" : "keys";
}

/** The item count of an array (items), object (own keys) or string (characters); undefined otherwise. */
export function itemCount(value: JsonValue): ItemCount | undefined {
  const count = itemCountOf(value);
  return count === undefined ? undefined : { count, unit: itemUnitOf(value) };
}
