import type { JsonObject, JsonValue } from "@obelisk/core";
import { appendPointer } from "@obelisk/core";
import { REFERENCE_STRING_SCHEMA } from "./reference-string-schema.js";
import { anyValue, anyValueDef } from "./strict-any-value.js";
import {
  allocateDefKey,
  anyOfSchema,
  defRef,
  getOwn,
  type Mutable,
  type PendingPlace,
  setOwn,
  sharedDef,
} from "./strict-build.js";
import { describeConverted, noteOnlyEmpty } from "./strict-description.js";
import { hasJsonType, literalSchema } from "./strict-literal-schema.js";
import { flattenSchema, hasConstraints, mergeSchemas } from "./strict-merge.js";
import { droppedWithoutLoss, listedKeys } from "./strict-property-names.js";
import { numberSchema, stringSchema, typesOf } from "./strict-scalar-schema.js";
import { DROPPED_KEYWORDS } from "./strict-schema-rules.js";
import { noteDeviation, noteOrigin, refTarget, type StrictContext } from "./strict-source.js";
import { isPlainObject } from "./to-json-schema.js";

/** Conversions nested deeper than this (through `$ref`s merged into themselves) take any value instead. */
const MAX_DEPTH = 256;

/** A `$ref` to the strict conversion of its target, converted once into `$defs` (recursion included). */
function refSchema(context: StrictContext, ref: string, pointer: string): Mutable {
  const { build, source } = context;
  const target = refTarget(source, ref);
  if (target === undefined)
    return anyValue(context, pointer, `the $ref ${JSON.stringify(ref)} is not resolved`);
  const id = JSON.stringify([source.tool, source.kind, source.references, target.pointer]);
  let key = build.targets.get(id);
  if (key === undefined) {
    const last = target.pointer.split("/").pop() || "root";
    key = allocateDefKey(
      build,
      `${source.tool}${source.kind === "input" ? "" : `__${source.kind}`}__${last}`,
    );
    build.targets.set(id, key);
    build.defs[key] =
      strictValueSchema(context, target.node, target.pointer) ??
      anyValue(context, target.pointer, "no value satisfies this schema");
  }
  return { ...defRef(key) };
}

/** Where a property at `pointer` of the source is, for a tool's schema (not Obelisk's meta-properties). */
function placeOf(context: StrictContext, pointer: string): { place?: PendingPlace } {
  const { kind, tool, references } = context.source;
  return kind === "meta" ? {} : { place: { tool, schema: kind, pointer, references } };
}

/** `schema`, or any of it and a reference string where the source's values take references. */
export function strictParameterSchema(
  context: StrictContext,
  node: JsonValue,
  pointer: string,
): Mutable | undefined {
  const schema = strictValueSchema(context, node, pointer);
  if (schema === undefined || !context.source.references) return schema;
  const reference = defRef(sharedDef(context.build, "reference", () => REFERENCE_STRING_SCHEMA));
  return anyOfSchema([schema, reference]);
}

/**
 * The strict object schema of `schema`: every property (its own schema or a reference) listed in `required`
 * — those the schema leaves optional noted, to become nullable — and `additionalProperties: false`. Keys
 * beyond the named properties cannot be written (noted as `open-object`, except at a call's root that only
 * leaves `additionalProperties` unsaid; an open object without named keys says in its description that a
 * reference can pass more). Keys a `propertyNames` lists (an enum-keyed record) are named, the object closed.
 * At a call's root (`root`), keys starting with `_` are left out.
 */
export function strictObjectSchema(
  context: StrictContext,
  schema: JsonObject,
  pointer: string,
  root: boolean,
): Mutable {
  const declared = isPlainObject(schema.properties) ? (schema.properties as JsonObject) : {};
  const required = new Set(
    (Array.isArray(schema.required) ? schema.required : []).filter((k) => typeof k === "string"),
  );
  const properties: Mutable = {};
  const out: Mutable = { type: "object", properties, required: [], additionalProperties: false };
  const extra = schema.additionalProperties ?? schema.unevaluatedProperties;
  const entries: [string, JsonValue, string][] = Object.entries(declared).map(([key, child]) => [
    key,
    child,
    appendPointer(appendPointer(pointer, "properties"), key),
  ]);
  // A key required or listed by `propertyNames` (an enum-keyed record) but not declared: the schema of any
  // other key (`true` when unsaid). Listed keys are each a property, optional unless required: all named.
  const listed = extra === false ? undefined : listedKeys(schema);
  const other: [JsonValue, string] = isPlainObject(extra)
    ? [
        extra,
        appendPointer(
          pointer,
          "additionalProperties" in schema ? "additionalProperties" : "unevaluatedProperties",
        ),
      ]
    : [true, appendPointer(pointer, "required")];
  const named = new Set(entries.map(([key]) => key));
  for (const key of [...required, ...(listed ?? [])] as string[])
    if (!named.has(key)) {
      named.add(key);
      entries.push([key, ...other]);
    }
  for (const [key, child, at] of entries) {
    if (root && key.startsWith("_")) continue;
    const value = strictParameterSchema(context, child, at);
    if (value === undefined) continue;
    setOwn(properties, key, value);
    if (!required.has(key)) context.build.pending.push({ object: out, key, ...placeOf(context, at) });
  }
  out.required = Object.keys(properties);
  noteOrigin(context, out, pointer);
  const patterns =
    isPlainObject(schema.patternProperties) && Object.keys(schema.patternProperties).length > 0;
  const open =
    listed === undefined &&
    (extra === undefined ? !root && Object.keys(declared).length === 0 : extra !== false);
  if (patterns || open) {
    noteDeviation(context, {
      pointer,
      reason: "open-object",
      message:
        "the object takes keys besides its named properties: strict mode can only write the named ones",
    });
    if (Object.keys(properties).length === 0 && context.source.references) noteOnlyEmpty(out);
  }
  return out;
}

function arraySchema(context: StrictContext, schema: JsonObject, pointer: string): Mutable {
  const out: Mutable = { type: "array" };
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
  const items = schema.items ?? true;
  let maxItems =
    Number.isInteger(schema.maxItems) && (schema.maxItems as number) >= 0 ? schema.maxItems : undefined;
  const members = prefix.map((p, i) =>
    strictParameterSchema(context, p, appendPointer(appendPointer(pointer, "prefixItems"), i)),
  );
  if (items === false) maxItems = Math.min((maxItems as number | undefined) ?? prefix.length, prefix.length);
  else members.push(strictParameterSchema(context, items, appendPointer(pointer, "items")));
  const defined = members.filter((m): m is Mutable => m !== undefined);
  if (prefix.length > 0)
    noteDeviation(context, {
      pointer,
      reason: "tuple",
      message:
        "a tuple's positions are one item schema in strict mode: any of its item types may stand anywhere",
    });
  out.items =
    defined.length === 0 ? defRef(sharedDef(context.build, "json", anyValueDef)) : anyOfSchema(defined);
  if (defined.length === 0) maxItems = 0;
  if (Number.isInteger(schema.minItems) && (schema.minItems as number) >= 0)
    out.minItems = schema.minItems as number;
  if (maxItems !== undefined) out.maxItems = maxItems;
  return out;
}

function typedSchema(context: StrictContext, schema: JsonObject, pointer: string): Mutable | undefined {
  const types = typesOf(schema);
  if (types === undefined) return anyValue(context, pointer, "the schema takes any value");
  const branches = types.map((type): Mutable => {
    if (type === "object") return strictObjectSchema(context, schema, pointer, false);
    if (type === "array") return arraySchema(context, schema, pointer);
    if (type === "string") return stringSchema(context, schema, pointer);
    if (type === "number" || type === "integer") return numberSchema(type, schema);
    return { type };
  });
  return branches.length === 0 ? undefined : anyOfSchema(branches);
}

function enumSchema(context: StrictContext, schema: JsonObject, pointer: string): Mutable | undefined {
  const values = "const" in schema ? [schema.const as JsonValue] : (schema.enum as JsonValue[]);
  const types = typeof schema.type === "string" || Array.isArray(schema.type) ? typesOf(schema) : undefined;
  const allowed = values.filter((v) => types === undefined || types.some((t) => hasJsonType(v, t)));
  if (allowed.length === 0) return undefined;
  const literal = literalSchema(allowed);
  if (literal === undefined) return anyValue(context, pointer, "the literal is nested too deep");
  noteOrigin(context, literal.schema, pointer);
  if (literal.tuple)
    noteDeviation(context, {
      pointer,
      reason: "tuple",
      message: "an array literal's items may come in any order in strict mode",
    });
  return literal.schema;
}

function alternativesSchema(
  context: StrictContext,
  schema: JsonObject,
  pointer: string,
): Mutable | undefined {
  const keyword = Array.isArray(schema.anyOf) ? "anyOf" : "oneOf";
  const list = schema[keyword] as JsonValue[];
  if (Array.isArray(schema.oneOf))
    noteDeviation(context, {
      pointer,
      reason: "keyword-dropped",
      keyword: "oneOf",
      message: `oneOf becomes anyOf in strict mode: a value may match more than one branch${keyword === "anyOf" ? " (and oneOf beside anyOf is left out)" : ""}`,
    });
  // What stands beside the alternatives applies to each (a dropped keyword is noted once, here).
  const rest: Mutable = { ...schema };
  for (const key of Object.keys(rest))
    if (key === "anyOf" || key === "oneOf" || key === "description" || DROPPED_KEYWORDS.has(key))
      delete rest[key];
  const branches = list.map((branch, i) =>
    strictValueSchema(
      context,
      hasConstraints(rest) ? mergeSchemas([rest, branch]) : branch,
      appendPointer(appendPointer(pointer, keyword), i),
    ),
  );
  const defined = branches.filter((b): b is Mutable => b !== undefined);
  return defined.length === 0 ? undefined : anyOfSchema(defined);
}

function convert(context: StrictContext, node: JsonValue, pointer: string): Mutable | undefined {
  if (node === false) return undefined;
  if (!isPlainObject(node)) return anyValue(context, pointer, "the schema takes any value");
  const flat = flattenSchema(context, node as JsonObject, pointer, false);
  if (!isPlainObject(flat))
    return flat === false ? undefined : anyValue(context, pointer, "the schema takes any value");
  const schema = flat as JsonObject;
  if (typeof schema.$ref === "string") return refSchema(context, schema.$ref, pointer);
  for (const keyword of Object.keys(schema))
    if (DROPPED_KEYWORDS.has(keyword) && !droppedWithoutLoss(schema, keyword))
      noteDeviation(context, {
        pointer,
        reason: "keyword-dropped",
        keyword,
        message: `strict mode has no ${keyword}: the strict schema accepts what it would refuse`,
      });
  const converted =
    Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)
      ? alternativesSchema(context, schema, pointer)
      : "const" in schema || Array.isArray(schema.enum)
        ? enumSchema(context, schema, pointer)
        : typedSchema(context, schema, pointer);
  if (converted !== undefined && typeof converted.$ref !== "string")
    describeConverted(converted, getOwn(schema, "description"));
  return converted;
}

/**
 * The strict schema of the values `node` (a subschema of the source at `pointer`) takes, or undefined when
 * it takes none. Keywords strict mode lacks are dropped or rewritten so that the result accepts at least
 * what `node` accepts, except where strict mode cannot say it (open objects, any value): each noted.
 */
export function strictValueSchema(
  context: StrictContext,
  node: JsonValue,
  pointer: string,
): Mutable | undefined {
  if (context.depth > MAX_DEPTH) return anyValue(context, pointer, "the schema nests too deep");
  context.depth += 1;
  try {
    return convert(context, node, pointer);
  } finally {
    context.depth -= 1;
  }
}
