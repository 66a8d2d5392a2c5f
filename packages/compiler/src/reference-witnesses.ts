import type { JsonObject, JsonValue, PathSegment } from "@obelisk/core";
import { setOwn } from "@obelisk/core";
import { ANNOTATION_KEYWORDS } from "./annotation-keywords.js";
import { clearList } from "./clear-list.js";
import type { ParamReference } from "./compiled-plan.js";

/**
 * Keywords whose outcome at a value depends only on that value itself (leaf keywords), or on the keys or
 * length of a container but not on the values inside it (structural keywords), and annotations. In a
 * schema made of these only, replacing the value at one place changes the schema's issues at that place
 * and at its containers' enum/const only; every other issue stays the same.
 */
const ISOLATING = new Set<string>([
  "$schema",
  "$comment",
  ...ANNOTATION_KEYWORDS,
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "propertyNames",
  "dependentRequired",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "enum",
  "const",
]);

/** Keywords a leaf schema may have for a witness to be known: the type and annotations. */
const WITNESS_KEYS = new Set<string>(["$schema", "$comment", ...ANNOTATION_KEYWORDS, "type"]);

/** A value of each JSON type that `{ "type": <it> }` accepts (never changed: ajv only reads values). */
const WITNESS_BY_TYPE: Readonly<Record<string, JsonValue>> = {
  number: 0,
  integer: 0,
  boolean: false,
  null: null,
  object: {},
  array: [],
};

/** The value at a reference's place is left as it is: the schema there accepts any string. */
const KEEP: unique symbol = Symbol("keep");
/** No value is known that the schema there accepts: the reference string stays (its issue is dropped later). */
const NONE: unique symbol = Symbol("none");
type Witness = JsonValue | typeof KEEP | typeof NONE;

const isolatingSchemas = new WeakMap<object, boolean>();
const witnesses = new WeakMap<object, Witness>();

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True when every subschema of `schema` uses isolating keywords only (see ISOLATING). */
function isIsolating(schema: unknown, depth = 0): boolean {
  if (typeof schema === "boolean") return true;
  if (!isObject(schema) || depth > 32) return false;
  const known = isolatingSchemas.get(schema);
  if (known !== undefined) return known;
  let result = true;
  for (const key in schema) {
    if (!Object.hasOwn(schema, key)) continue;
    if (!ISOLATING.has(key)) result = false;
    else if (key === "properties") {
      const properties = schema.properties;
      if (!isObject(properties)) result = false;
      else
        for (const name in properties)
          if (Object.hasOwn(properties, name) && !isIsolating(properties[name], depth + 1)) result = false;
    } else if (key === "prefixItems") {
      const items = schema.prefixItems;
      if (!Array.isArray(items) || !items.every((item) => isIsolating(item, depth + 1))) result = false;
    } else if (key === "additionalProperties" || key === "items" || key === "propertyNames") {
      if (!isIsolating(schema[key], depth + 1)) result = false;
    }
    if (!result) break;
  }
  isolatingSchemas.set(schema, result);
  return result;
}

/** The subschema that applies to the value at `location` (true: none applies). */
function schemaAt(schema: unknown, location: readonly PathSegment[]): unknown {
  let current = schema;
  for (const segment of location) {
    if (typeof current === "boolean") return current;
    if (!isObject(current)) return false;
    if (typeof segment === "number") {
      const prefix = current.prefixItems;
      if (Array.isArray(prefix) && segment < prefix.length) current = prefix[segment];
      else current = current.items ?? true;
    } else {
      const properties = current.properties;
      if (isObject(properties) && Object.hasOwn(properties, segment)) current = properties[segment];
      else current = current.additionalProperties ?? true;
    }
  }
  return current;
}

/** What to put at a place whose subschema is `schema` instead of a reference string. */
function witnessOf(schema: unknown): Witness {
  if (typeof schema === "boolean") return schema ? KEEP : NONE;
  if (!isObject(schema)) return NONE;
  const known = witnesses.get(schema);
  if (known !== undefined) return known;
  let witness: Witness = KEEP;
  for (const key in schema) if (Object.hasOwn(schema, key) && !WITNESS_KEYS.has(key)) witness = NONE;
  if (witness === KEEP && schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const first = types[0];
    if (types.includes("string")) witness = KEEP;
    else if (typeof first === "string" && Object.hasOwn(WITNESS_BY_TYPE, first))
      witness = WITNESS_BY_TYPE[first] as JsonValue;
    else witness = NONE;
  }
  witnesses.set(schema, witness);
  return witness;
}

/**
 * A shallow copy of a container (own enumerable keys). An array is copied item by item: a plan's arrays
 * are frozen, and `slice` of a frozen array takes V8's generic path (~3x slower). A hole becomes
 * undefined, which a schema check reads the same way.
 */
function copyOf(value: JsonValue): JsonValue {
  if (!Array.isArray(value)) return { ...(value as JsonObject) };
  const copy: JsonValue[] = new Array(value.length);
  for (let index = 0; index < value.length; index++) copy[index] = value[index] as JsonValue;
  return copy;
}

/** The containers copied for the current call (scratch, emptied after each call). */
const COPIES: JsonValue[] = [];

/**
 * The parameters to check against the tool's input schema: `params` itself, or a copy in which each
 * reference string (a reference or template) is replaced by a value its place's schema accepts, when the
 * schema isolates places (see ISOLATING) and such a value is known. The issues a reference string gives
 * are dropped anyway (references are type-checked instead; see `literalIssues`), and replacing it leaves
 * every other issue as it was; ajv then builds no error object for it (~170 bytes each: a `number[]`
 * holding references gave one per reference).
 */
export function paramsForSchemaCheck(
  schema: JsonObject,
  params: JsonObject,
  references: readonly ParamReference[],
): JsonObject {
  if (references.length === 0 || !isIsolating(schema)) return params;
  let copy: JsonObject | undefined;
  try {
    for (const reference of references) {
      const witness = witnessOf(schemaAt(schema, reference.location));
      if (witness === KEEP || witness === NONE) continue;
      copy ??= { ...params };
      const location = reference.location;
      let container: JsonValue = copy;
      for (let at = 0; at < location.length - 1; at++) {
        const segment = location[at] as PathSegment;
        let child = (container as Record<string | number, JsonValue>)[segment] as JsonValue;
        if (!COPIES.includes(child)) {
          child = copyOf(child);
          COPIES.push(child);
          setOwn(container as Record<string | number, JsonValue>, segment, child);
        }
        container = child;
      }
      setOwn(
        container as Record<string | number, JsonValue>,
        location[location.length - 1] as PathSegment,
        witness,
      );
    }
  } finally {
    clearList(COPIES);
  }
  return copy ?? params;
}
