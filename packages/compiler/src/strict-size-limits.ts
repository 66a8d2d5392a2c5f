import type { JsonObject, JsonValue } from "@obelisk/core";
import { getOwn, refDefKey } from "./strict-build.js";
import type { StrictSchemaDeviation } from "./strict-deviation.js";
import type { StrictSchemaLimits } from "./strict-schema-rules.js";
import { isPlainObject } from "./to-json-schema.js";

/** What a strict schema measures against the documented limits. */
interface Measures {
  properties: number;
  strings: number;
  enumValues: number;
  largeEnumLength: number;
}

/** Subschema-holding keywords of the strict subset (`$defs` is walked once, from the root). */
const SCHEMA_MAPS = ["properties", "$defs"] as const;

function measure(schema: JsonValue, limits: StrictSchemaLimits, out: Measures): void {
  if (!isPlainObject(schema)) return;
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (!isPlainObject(map)) continue;
    for (const [name, child] of Object.entries(map)) {
      if (key === "properties") out.properties += 1;
      out.strings += name.length;
      measure(child as JsonValue, limits, out);
    }
  }
  if (Array.isArray(schema.enum)) {
    out.enumValues += schema.enum.length;
    const strings = schema.enum.filter((v): v is string => typeof v === "string");
    const length = strings.reduce((sum, v) => sum + v.length, 0);
    out.strings += length;
    if (strings.length > limits.largeEnumSize) out.largeEnumLength = Math.max(out.largeEnumLength, length);
  }
  if (typeof schema.const === "string") out.strings += schema.const.length;
  if (Array.isArray(schema.anyOf)) for (const branch of schema.anyOf) measure(branch, limits, out);
  if (schema.items !== undefined) measure(schema.items as JsonValue, limits, out);
}

/** The deepest nesting of object schemas below `schema` (a `$ref` followed, except into a def it is inside). */
function objectDepth(defs: JsonObject, schema: JsonValue, stack: Set<string>): number {
  if (!isPlainObject(schema)) return 0;
  const key = refDefKey(schema.$ref);
  if (key !== undefined) {
    if (stack.has(key)) return 0;
    stack.add(key);
    const depth = objectDepth(defs, getOwn(defs, key) ?? null, stack);
    stack.delete(key);
    return depth;
  }
  const children: JsonValue[] = [
    ...(isPlainObject(schema.properties) ? Object.values(schema.properties) : []),
    ...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
    ...(schema.items === undefined ? [] : [schema.items as JsonValue]),
  ];
  const below = Math.max(0, ...children.map((child) => objectDepth(defs, child, stack)));
  return below + (schema.type === "object" ? 1 : 0);
}

/**
 * The documented size limits a strict plan schema passes, each as a `size-limit` deviation: strict mode
 * may refuse such a schema. OpenAI does not say how it counts; this counts every `properties` key and
 * `$defs` name once, `enum` values, and object nesting along every path from the root (a recursive `$ref`
 * counted once).
 */
export function sizeLimitDeviations(schema: JsonObject, limits: StrictSchemaLimits): StrictSchemaDeviation[] {
  const found: Measures = { properties: 0, strings: 0, enumValues: 0, largeEnumLength: 0 };
  measure(schema, limits, found);
  const defs = isPlainObject(schema.$defs) ? (schema.$defs as JsonObject) : {};
  const checks: [keyof StrictSchemaLimits, number, string][] = [
    ["maxProperties", found.properties, "object properties"],
    ["maxObjectDepth", objectDepth(defs, schema, new Set()), "levels of nested objects"],
    ["maxStringLength", found.strings, "characters of property names, definition names and enum values"],
    ["maxEnumValues", found.enumValues, "enum values"],
    [
      "maxLargeEnumLength",
      found.largeEnumLength,
      `characters in a string enum of over ${limits.largeEnumSize} values`,
    ],
  ];
  return checks
    .filter(([limit, value]) => value > limits[limit])
    .map(([limit, value, what]) => ({
      pointer: "",
      reason: "size-limit",
      limit,
      message: `the schema has ${value} ${what}; strict mode takes at most ${limits[limit]}`,
    }));
}
