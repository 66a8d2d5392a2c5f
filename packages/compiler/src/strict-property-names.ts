import type { JsonObject, JsonValue } from "@obelisk/core";
import { STRICT_SILENT_KEYWORDS } from "./strict-schema-rules.js";
import { isPlainObject } from "./to-json-schema.js";

/**
 * The keys an object schema's `propertyNames` limits it to, when they are a list (an `enum` or `const`, as
 * an enum-keyed `z.record` has): strict mode can name each. Undefined for any other `propertyNames`, and
 * beside `patternProperties` (a listed key's value schema would depend on the patterns).
 */
export function listedKeys(schema: JsonObject): string[] | undefined {
  const names = schema.propertyNames;
  if (!isPlainObject(names) || schema.patternProperties !== undefined) return undefined;
  if ("const" in names) return typeof names.const === "string" ? [names.const] : [];
  if (!Array.isArray(names.enum)) return undefined;
  return [...new Set(names.enum.filter((v): v is string => typeof v === "string"))];
}

/** True when `key` certainly satisfies the `propertyNames` schema `names` (false when unsure). */
function keyPasses(names: JsonValue, key: string): boolean {
  if (names === true) return true;
  if (!isPlainObject(names)) return false;
  for (const [keyword, value] of Object.entries(names)) {
    if (STRICT_SILENT_KEYWORDS.has(keyword)) continue;
    const length = [...key].length;
    const passes =
      keyword === "type"
        ? value === "string" || (Array.isArray(value) && value.includes("string"))
        : keyword === "enum"
          ? Array.isArray(value) && value.includes(key)
          : keyword === "const"
            ? value === key
            : keyword === "minLength"
              ? typeof value === "number" && length >= value
              : keyword === "maxLength"
                ? typeof value === "number" && length <= value
                : keyword === "pattern" && typeof value === "string" && matches(value, key);
    if (!passes) return false;
  }
  return true;
}

function matches(pattern: string, key: string): boolean {
  try {
    return new RegExp(pattern, "u").test(key);
  } catch {
    return false;
  }
}

/**
 * Whether leaving out the object schema's `propertyNames` lets the strict schema accept a key it refuses.
 * Strict mode writes no key but the named ones (`keys`): only a named key `propertyNames` may refuse is lost;
 * an open object's other keys cannot be written at all (an `open-object` deviation says so).
 */
function propertyNamesLost(schema: JsonObject, keys: readonly string[]): boolean {
  const names = schema.propertyNames;
  if (names === undefined) return false;
  return keys.some((key) => !keyPasses(names as JsonValue, key));
}

/**
 * The keys the strict schema of an object schema names: its `properties`, the keys it requires, and the
 * keys `propertyNames` lists (`listedKeys`) unless no other key is allowed.
 */
function namedKeys(schema: JsonObject): string[] {
  const declared = isPlainObject(schema.properties) ? Object.keys(schema.properties) : [];
  const required = Array.isArray(schema.required)
    ? schema.required.filter((k): k is string => typeof k === "string")
    : [];
  const extra = schema.additionalProperties ?? schema.unevaluatedProperties;
  const listed = extra === false ? [] : (listedKeys(schema) ?? []);
  return [...new Set([...declared, ...required, ...listed])];
}

/** Whether the keyword `keyword` of `schema` is dropped without loss: a `propertyNames` no named key breaks. */
export function droppedWithoutLoss(schema: JsonObject, keyword: string): boolean {
  if (keyword !== "propertyNames" || schema.anyOf !== undefined || schema.oneOf !== undefined) return false;
  return !propertyNamesLost(schema, namedKeys(schema));
}
