import type { JsonObject } from "@obelisk/core";
import { ObeliskError } from "@obelisk/core";
import { z } from "zod";

/** True when `value` is a zod v4 schema (it carries the `_zod` internals). */
export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === "object" && value !== null && "_zod" in value;
}

/** True for a plain (non-array, non-null) object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Converts a tool schema (zod v4 or JSON Schema) to a JSON Schema object, once.
 * `io: "input"` describes what a caller passes (defaults optional); used for inputs and outputs alike,
 * because a tool returns the un-parsed shape. Throws `USAGE` for anything else.
 */
export function toJsonSchema(schema: unknown, what: string): JsonObject {
  if (isZodSchema(schema)) {
    try {
      return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonObject;
    } catch (error) {
      throw new ObeliskError("USAGE", `${what}: the zod schema cannot be converted to JSON Schema`, {
        cause: error,
      });
    }
  }
  if (isPlainObject(schema)) return schema as JsonObject;
  if (schema === true) return {};
  throw new ObeliskError("USAGE", `${what}: expected a zod schema or a JSON Schema object`);
}
