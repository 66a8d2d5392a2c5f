import type { JsonObject, JsonValue } from "@obelisk/core";
import { anyOfSchema, type Mutable, setOwn } from "./strict-build.js";
import { isPlainObject } from "./to-json-schema.js";

/** Literals nested deeper than this are not spelled out (the caller takes any value there). */
const MAX_LITERAL_DEPTH = 32;

/** What describing literals found: the schema, and whether an array literal's order was lost. */
export interface LiteralSchema {
  readonly schema: Mutable;
  readonly tuple: boolean;
}

/** The JSON type name of a value, as `type` spells it. */
function jsonType(value: JsonValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** True when `value` is of the JSON Schema type `type` (`integer`: a number without fraction). */
export function hasJsonType(value: JsonValue, type: string): boolean {
  if (type === "integer") return typeof value === "number" && Number.isInteger(value);
  return jsonType(value) === type;
}

function literalsAt(
  values: readonly JsonValue[],
  depth: number,
  found: { tuple: boolean },
): Mutable | undefined {
  if (depth > MAX_LITERAL_DEPTH) return undefined;
  const branches: Mutable[] = [];
  for (const type of ["string", "number", "boolean"] as const) {
    const same = values.filter((v) => typeof v === type);
    if (same.length > 0) branches.push({ type, enum: [...new Set(same)] });
  }
  if (values.includes(null)) branches.push({ type: "null" });
  for (const value of values) {
    if (isPlainObject(value)) {
      const properties: Mutable = {};
      for (const [key, item] of Object.entries(value as JsonObject)) {
        const schema = literalsAt([item], depth + 1, found);
        if (schema === undefined) return undefined;
        setOwn(properties, key, schema);
      }
      const keys = Object.keys(properties);
      branches.push({ type: "object", properties, required: keys, additionalProperties: false });
    } else if (Array.isArray(value)) {
      found.tuple ||= value.length > 1;
      const items = value.length === 0 ? { type: "null" } : literalsAt(value, depth + 1, found);
      if (items === undefined) return undefined;
      branches.push({ type: "array", items, minItems: value.length, maxItems: value.length });
    }
  }
  return branches.length === 0 ? undefined : anyOfSchema(branches);
}

/**
 * The strict schema of a `const` or `enum`: its values grouped by type (`{ type: "string", enum: [...] }`),
 * an object value spelled out as an object of its members' literals (exact), an array value as an array of
 * its length whose items are any of its items (`tuple: true` when that loses their order). Undefined for no
 * values, or literals nested too deep.
 */
export function literalSchema(values: readonly JsonValue[]): LiteralSchema | undefined {
  const found = { tuple: false };
  const schema = literalsAt(values, 0, found);
  return schema === undefined ? undefined : { schema, tuple: found.tuple };
}
