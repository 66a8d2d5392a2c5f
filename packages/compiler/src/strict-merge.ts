import type { JsonObject, JsonValue } from "@obelisk/core";
import { type Mutable, setOwn } from "./strict-build.js";
import { STRICT_SILENT_KEYWORDS } from "./strict-schema-rules.js";
import { noteDeviation, refTarget, type StrictContext } from "./strict-source.js";
import { isPlainObject } from "./to-json-schema.js";

/** Nested `allOf`s and `$ref`s merged deeper than this are left out (the result accepts more). */
const MAX_MERGE_DEPTH = 8;

/** True when the schema has a keyword that constrains (not only annotations). */
export function hasConstraints(schema: JsonObject): boolean {
  return Object.keys(schema).some((key) => !STRICT_SILENT_KEYWORDS.has(key));
}

function typeList(type: JsonValue | undefined): string[] | undefined {
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === "string");
  return undefined;
}

/** The types both lists allow (`integer` is a `number`), or undefined when one says nothing. */
function intersectTypes(a: JsonValue | undefined, b: JsonValue | undefined): string[] | undefined {
  const left = typeList(a);
  const right = typeList(b);
  if (left === undefined) return right;
  if (right === undefined) return left;
  const allows = (list: string[], t: string) =>
    list.includes(t) || (t === "integer" && list.includes("number"));
  return [...new Set([...left, ...right])].filter((t) => allows(left, t) && allows(right, t));
}

/**
 * One schema for all of `parts` (an `allOf`): `type`s intersected, `required` joined, `properties` joined
 * (a property in two parts keeps the first's schema), any other keyword the first part's. Keeping one
 * part's constraint where two constrain accepts more than the `allOf`, never less. False when no value can
 * satisfy it (a `false` part, disjoint types).
 */
export function mergeSchemas(parts: readonly JsonValue[]): JsonValue {
  const out: Mutable = {};
  for (const part of parts) {
    if (part === false) return false;
    if (!isPlainObject(part)) continue;
    for (const [key, value] of Object.entries(part as JsonObject)) {
      if (key === "__proto__") continue;
      if (key === "type") {
        const types = intersectTypes(out.type, value);
        if (types !== undefined && types.length === 0) return false;
        if (types !== undefined) out.type = types;
      } else if (key === "required" && Array.isArray(value)) {
        out.required = [...new Set([...(Array.isArray(out.required) ? out.required : []), ...value])];
      } else if (key === "properties" && isPlainObject(value)) {
        const joined: Mutable = { ...(isPlainObject(out.properties) ? (out.properties as JsonObject) : {}) };
        for (const [name, schema] of Object.entries(value as JsonObject))
          if (!Object.hasOwn(joined, name)) setOwn(joined, name, schema);
        out.properties = joined;
      } else if (!Object.hasOwn(out, key)) out[key] = value;
    }
  }
  return out;
}

function flattenAt(context: StrictContext, schema: JsonObject, mergeRef: boolean, depth: number): JsonValue {
  const ref = schema.$ref ?? schema.$dynamicRef;
  const rest: Mutable = { ...schema };
  delete rest.allOf;
  delete rest.$ref;
  delete rest.$dynamicRef;
  if (depth >= MAX_MERGE_DEPTH) return rest;
  const parts: JsonValue[] = [];
  if (typeof ref === "string" && mergeRef) {
    const target = refTarget(context.source, ref);
    // An unresolved `$ref` constrains nothing the strict schema can say: left out (accepts more).
    if (target !== undefined)
      parts.push(isPlainObject(target.node) ? flattenAt(context, target.node, true, depth + 1) : target.node);
  } else if (typeof ref === "string") rest.$ref = ref;
  if (Array.isArray(schema.allOf))
    for (const member of schema.allOf)
      parts.push(isPlainObject(member) ? flattenAt(context, member as JsonObject, true, depth + 1) : member);
  return parts.length === 0 ? rest : mergeSchemas([rest, ...parts]);
}

/**
 * The schema with its `allOf` and its `$ref` beside other constraints merged in (`mergeSchemas`), so what
 * remains is one schema or a lone `$ref` (kept: it may be recursive). `resolveRef` merges a lone `$ref`
 * too (a call's root must be an object schema). Notes a merge of two or more constraining parts: it may
 * accept more than the schema.
 */
export function flattenSchema(
  context: StrictContext,
  schema: JsonObject,
  pointer: string,
  resolveRef: boolean,
): JsonValue {
  const ref = schema.$ref ?? schema.$dynamicRef;
  const rest: Mutable = { ...schema };
  delete rest.$ref;
  delete rest.$dynamicRef;
  const mergesRef = typeof ref === "string" && (resolveRef || hasConstraints(rest));
  // A lone `$ref` beside annotations only: the annotations are left out, the `$ref` kept alone.
  if (typeof ref === "string" && !mergesRef) return { $ref: ref };
  if (schema.allOf === undefined && !mergesRef) return schema;
  delete rest.allOf;
  const members = Array.isArray(schema.allOf) ? schema.allOf.length : 0;
  if (members + (mergesRef ? 1 : 0) + (hasConstraints(rest) ? 1 : 0) > 1)
    noteDeviation(context, {
      pointer,
      reason: "keyword-dropped",
      keyword: "allOf",
      message:
        "an allOf (or a $ref beside other keywords) is merged into one schema: where two parts constrain the same keyword, only the first part's applies",
    });
  return flattenAt(context, schema, mergesRef, 0);
}
