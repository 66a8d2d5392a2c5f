import type { JsonValue } from "./json-value.js";

/** How many items a value holds, and what they are (SPEC §8). */
export interface ItemCount {
  /** The number of items. */
  readonly count: number;
  /** Array items, object keys, or string characters (UTF-16 code units). */
  readonly unit: "items" | "keys" | "characters";
}

/** The item count of an array (items), object (own keys) or string (characters); undefined otherwise. */
export function itemCount(value: JsonValue): ItemCount | undefined {
  if (typeof value === "string") return { count: value.length, unit: "characters" };
  if (Array.isArray(value)) return { count: value.length, unit: "items" };
  if (typeof value === "object" && value !== null) return { count: Object.keys(value).length, unit: "keys" };
  return undefined;
}
