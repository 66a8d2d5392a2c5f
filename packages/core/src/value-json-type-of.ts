import type { JsonValue } from "./json-value.js";

/** The JSON type of a value. */
export type JsonType = "null" | "boolean" | "number" | "string" | "array" | "object";

/** The JSON type of a value (`null` and arrays are told apart from objects). */
export function jsonTypeOf(value: JsonValue): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  switch (typeof value) {
    case "boolean":
      return "boolean";
    case "number":
      return "number";
    case "string":
      return "string";
    default:
      return "object";
  }
}
