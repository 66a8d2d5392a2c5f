import type { JsonObject, JsonValue } from "@obelisk/core";

/** How deep `exampleValue` follows nested objects, arrays and `$ref`s before giving up. */
const MAX_DEPTH = 6;

/** Strings for common JSON Schema formats, so that an example value passes a `format` check. */
const FORMATTED: Readonly<Record<string, string>> = {
  email: "ada@example.com",
  "date-time": "2026-01-01T09:00:00Z",
  date: "2026-01-01",
  time: "09:00:00Z",
  uri: "https://example.com",
  url: "https://example.com",
  uuid: "123e4567-e89b-42d3-a456-426614174000",
  hostname: "example.com",
  ipv4: "192.0.2.1",
};

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A value the JSON Schema `schema` accepts, picked deterministically from the schema alone: its `const`,
 * first `enum` member, first `examples` item or `default`, else a plain value of its first type (required
 * object properties only; the fewest array items it allows). `root` resolves local `$ref`s (`#/$defs/…`).
 * Undefined when the schema says nothing usable within `MAX_DEPTH` (a `not`, an endless `$ref`).
 */
export function exampleValue(schema: unknown, root: unknown = schema, depth = 0): JsonValue | undefined {
  if (schema === true) return "example";
  if (!isObject(schema) || depth > MAX_DEPTH) return undefined;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ("default" in schema) return schema.default;
  if (typeof schema.$ref === "string") return exampleValue(resolveRef(schema.$ref, root), root, depth + 1);
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const options = schema[key];
    if (!Array.isArray(options)) continue;
    for (const option of options) {
      const value = exampleValue(option, root, depth + 1);
      if (value !== undefined) return value;
    }
  }
  return ofType(schema, firstType(schema), root, depth);
}

/** The schema's first type that is not `null` (an object with `properties` is an object). */
function firstType(schema: JsonObject): string | undefined {
  const { type } = schema;
  if (typeof type === "string") return type;
  if (Array.isArray(type))
    return type.find((each): each is string => typeof each === "string" && each !== "null");
  if (isObject(schema.properties)) return "object";
  if ("items" in schema) return "array";
  return Object.keys(schema).some((key) => key !== "description" && key !== "title") ? undefined : "string";
}

function ofType(
  schema: JsonObject,
  type: string | undefined,
  root: unknown,
  depth: number,
): JsonValue | undefined {
  switch (type) {
    case "string":
      return exampleString(schema);
    case "integer":
    case "number":
      return exampleNumber(schema, type === "integer");
    case "boolean":
      return true;
    case "null":
      return null;
    case "array": {
      const count = typeof schema.minItems === "number" ? Math.min(schema.minItems, 3) : 0;
      if (count === 0) return [];
      const item = exampleValue(schema.items, root, depth + 1);
      return item === undefined ? undefined : Array.from({ length: count }, () => item);
    }
    case "object":
      return exampleObject(schema, root, depth);
    default:
      return undefined;
  }
}

function exampleString(schema: JsonObject): string {
  const formatted = typeof schema.format === "string" ? FORMATTED[schema.format] : undefined;
  if (formatted !== undefined) return formatted;
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
  const text = "example".padEnd(min, "x");
  return text.length > max ? text.slice(0, max) : text;
}

function exampleNumber(schema: JsonObject, integer: boolean): number {
  const step = integer ? 1 : 0.5;
  let value = 1;
  if (typeof schema.minimum === "number") value = Math.max(value, schema.minimum);
  if (typeof schema.exclusiveMinimum === "number") value = Math.max(value, schema.exclusiveMinimum + step);
  if (typeof schema.maximum === "number") value = Math.min(value, schema.maximum);
  if (typeof schema.exclusiveMaximum === "number") value = Math.min(value, schema.exclusiveMaximum - step);
  return integer ? Math.ceil(value) : value;
}

function exampleObject(schema: JsonObject, root: unknown, depth: number): JsonObject | undefined {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const value: Record<string, JsonValue> = {};
  for (const name of required) {
    if (typeof name !== "string") continue;
    const item = exampleValue(properties[name] ?? {}, root, depth + 1);
    if (item === undefined) return undefined;
    value[name] = item;
  }
  return value;
}

/** The schema a local `$ref` (`#/$defs/user`, `#`) points at, or undefined. */
function resolveRef(ref: string, root: unknown): unknown {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    node = isObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
  }
  return node;
}
