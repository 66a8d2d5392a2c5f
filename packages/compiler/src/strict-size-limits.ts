import type { JsonObject, JsonValue } from "@obelisk/core";
import type { SchemaOrigin } from "./strict-build.js";
import type { StrictSchemaDeviation } from "./strict-deviation.js";
import { DEPTH_STEPS, DEPTH_STEPS_PER_SCHEMA, objectDepth } from "./strict-object-depth.js";
import type { StrictSchemaLimits } from "./strict-schema-rules.js";
import { isPlainObject } from "./to-json-schema.js";

/** Where a strict schema comes from in a tool's schema, by its identity (unknown: Obelisk's own parts). */
type Origins = WeakMap<object, SchemaOrigin>;

/** An `enum`, with where it comes from. */
interface FoundEnum {
  readonly size: number;
  readonly length: number;
  readonly origin: SchemaOrigin | undefined;
}

/** What a strict schema measures against the documented limits. */
interface Measures {
  /** Schema objects, `$defs` walked once. */
  schemas: number;
  properties: number;
  strings: number;
  enumValues: number;
  /** The enum of the most values. */
  largest?: FoundEnum;
  /** The string enum of over `largeEnumSize` values with the most characters. */
  longest?: FoundEnum;
}

/** Subschema-holding keywords of the strict subset (`$defs` is walked once, from the root). */
const SCHEMA_MAPS = ["properties", "$defs"] as const;

function measureEnum(schema: JsonObject, values: readonly JsonValue[], context: Context): void {
  const { limits, origins, out } = context;
  out.enumValues += values.length;
  const strings = values.filter((v): v is string => typeof v === "string");
  const length = strings.reduce((sum, v) => sum + v.length, 0);
  out.strings += length;
  const found = { size: values.length, length, origin: origins.get(schema) };
  if (out.largest === undefined || found.size > out.largest.size) out.largest = found;
  if (strings.length > limits.largeEnumSize && (out.longest === undefined || length > out.longest.length))
    out.longest = found;
}

interface Context {
  readonly limits: StrictSchemaLimits;
  readonly origins: Origins;
  readonly out: Measures;
}

function measure(schema: JsonValue, context: Context): void {
  if (!isPlainObject(schema)) return;
  context.out.schemas += 1;
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (!isPlainObject(map)) continue;
    for (const [name, child] of Object.entries(map)) {
      if (key === "properties") context.out.properties += 1;
      context.out.strings += name.length;
      measure(child as JsonValue, context);
    }
  }
  if (Array.isArray(schema.enum)) measureEnum(schema as JsonObject, schema.enum, context);
  if (typeof schema.const === "string") context.out.strings += schema.const.length;
  if (Array.isArray(schema.anyOf)) for (const branch of schema.anyOf) measure(branch, context);
  if (schema.items !== undefined) measure(schema.items as JsonValue, context);
}

/** A deviation for a limit passed, at `origin` (a tool's schema) when one place decides it. */
function sizeLimit(
  limit: keyof StrictSchemaLimits,
  message: string,
  origin: SchemaOrigin | undefined,
): StrictSchemaDeviation {
  const where = origin === undefined ? { pointer: "" } : { ...origin };
  return { ...where, reason: "size-limit", limit, message };
}

/**
 * The documented size limits a strict plan schema passes, each as a `size-limit` deviation: strict mode
 * may refuse such a schema. OpenAI does not say how it counts; this counts every `properties` key and
 * `$defs` name once, `enum` values, and object nesting along every path from the root (a recursive `$ref`
 * counted once). The nesting deviation names the tool and the place of the deepest object, the enum ones
 * the largest enum (when a tool's schema has it); the others are of the whole schema (`pointer` `""`).
 */
export function sizeLimitDeviations(
  schema: JsonObject,
  limits: StrictSchemaLimits,
  origins: Origins,
): StrictSchemaDeviation[] {
  const out: Measures = { schemas: 0, properties: 0, strings: 0, enumValues: 0 };
  measure(schema, { limits, origins, out });
  const defs = isPlainObject(schema.$defs) ? (schema.$defs as JsonObject) : {};
  const depth = objectDepth(defs, origins, schema, DEPTH_STEPS + DEPTH_STEPS_PER_SCHEMA * out.schemas);
  const found: StrictSchemaDeviation[] = [];
  const over = (limit: keyof StrictSchemaLimits, value: number) => value > limits[limit];
  const most = `strict mode takes at most`;
  if (over("maxProperties", out.properties))
    found.push(
      sizeLimit(
        "maxProperties",
        `the schema has ${out.properties} object properties; ${most} ${limits.maxProperties}`,
        undefined,
      ),
    );
  if (over("maxObjectDepth", depth.depth))
    found.push(
      sizeLimit(
        "maxObjectDepth",
        `the schema has ${depth.bounded ? "up to " : ""}${depth.depth} levels of nested objects${depth.bounded ? " (definitions that refer to each other in a cycle counted once each, together)" : ""}, counting the plan root and the call object (2 of them) down to ${depth.origin === undefined ? "its deepest object" : "the deepest object, here"}; ${most} ${limits.maxObjectDepth}`,
        depth.origin,
      ),
    );
  if (over("maxStringLength", out.strings))
    found.push(
      sizeLimit(
        "maxStringLength",
        `the schema has ${out.strings} characters of property names, definition names and enum values; ${most} ${limits.maxStringLength}`,
        undefined,
      ),
    );
  if (over("maxEnumValues", out.enumValues))
    found.push(
      sizeLimit(
        "maxEnumValues",
        `the schema has ${out.enumValues} enum values, ${out.largest?.size ?? 0} of them in its largest enum${out.largest?.origin === undefined ? "" : " (here)"}; ${most} ${limits.maxEnumValues}`,
        out.largest?.origin,
      ),
    );
  if (out.longest !== undefined && over("maxLargeEnumLength", out.longest.length))
    found.push(
      sizeLimit(
        "maxLargeEnumLength",
        `this string enum has ${out.longest.size} values of ${out.longest.length} characters; for an enum of over ${limits.largeEnumSize} values ${most} ${limits.maxLargeEnumLength}`,
        out.longest.origin,
      ),
    );
  return found;
}
