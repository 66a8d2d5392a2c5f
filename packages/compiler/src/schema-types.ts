import type { JsonValue, Path } from "@obelisk/core";
import { isPlainObject } from "./to-json-schema.js";

type Schema = Record<string, unknown>;
/** How many `$ref`s in a row are followed (and how deep combinators are searched). */
export const MAX_REF_DEPTH = 32;

/** The JSON type name of a value (`integer` for whole numbers). */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** `schema` with its local `$ref`s followed (undefined for a non-local or dangling one). */
export function resolveRef(schema: unknown, root: unknown): unknown {
  let current = schema;
  for (
    let depth = 0;
    depth < MAX_REF_DEPTH && isPlainObject(current) && typeof current.$ref === "string";
    depth++
  ) {
    const ref = current.$ref;
    if (!ref.startsWith("#")) return undefined;
    let target: unknown = root;
    for (const raw of ref.slice(1).split("/").slice(1)) {
      const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
      target = isPlainObject(target) && Object.hasOwn(target, key) ? target[key] : undefined;
    }
    current = target;
  }
  return current;
}

/** The schema of one path segment below `schema`, when one place certainly gives it (else undefined). */
export function childSchema(schema: Schema, segment: string | number): unknown {
  if (typeof segment === "number" || /^\d+$/.test(segment)) {
    const index = Number(segment);
    const prefix = schema.prefixItems;
    if (Array.isArray(prefix) && index < prefix.length) return prefix[index];
    if (isPlainObject(schema.items)) return schema.items;
    if (typeof segment === "number") return undefined;
  }
  const properties = schema.properties;
  if (isPlainObject(properties) && Object.hasOwn(properties, String(segment)))
    return properties[String(segment)];
  if (isPlainObject(schema.patternProperties)) return undefined;
  return isPlainObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
}

/** The sub-schema at `path` inside `root` (local `$ref`s followed); undefined when not certainly known. */
export function schemaAtPath(root: unknown, path: Path): Schema | undefined {
  let current = resolveRef(root, root);
  for (const segment of path) {
    if (!isPlainObject(current) || current.anyOf !== undefined || current.oneOf !== undefined)
      return undefined;
    current = resolveRef(childSchema(current, segment), root);
  }
  return isPlainObject(current) ? current : undefined;
}

/**
 * The nearest ancestor of `path` (a proper prefix, as its length) whose schema certainly admits only
 * scalars — known types, none of them `object` or `array` — with those types; undefined when there is
 * none or the walk stops being certain (`anyOf`/`oneOf` on the way, an undescribed level). Nothing can
 * be written below such a value: writing through a scalar fails, and a container created where it is
 * missing breaks the schema.
 */
export function scalarAncestor(
  root: unknown,
  path: Path,
  declaredTypes?: DeclaredTypes,
): { readonly length: number; readonly types: Set<string> } | undefined {
  let current = resolveRef(root, root);
  for (let length = 1; length < path.length; length++) {
    if (!isPlainObject(current) || current.anyOf !== undefined || current.oneOf !== undefined)
      return undefined;
    current = resolveRef(childSchema(current, path[length - 1] as string | number), root);
    const types = schemaTypes(current, root, declaredTypes);
    if (types !== undefined && types.size > 0 && !types.has("object") && !types.has("array"))
      return { length, types };
  }
  return undefined;
}

/** The type names of JSON Schema. */
const JSON_TYPES: ReadonlySet<string> = new Set([
  "null",
  "boolean",
  "object",
  "array",
  "number",
  "integer",
  "string",
]);

/**
 * Types schema objects declare themselves (`type`, `const`, `enum`), by object: they do not depend on the
 * root, so one compile keeps them (every reader of `number[]` items shares one set; sets are never
 * changed once made). Per compile, not per process: a caller may change a schema object between runs.
 */
export type DeclaredTypes = Map<object, Set<string>>;

function typesDeclaredBy(schema: Record<string, unknown>): Set<string> | undefined {
  const type = schema.type;
  // A name JSON Schema does not have (a plan's `inputSchema` with `"strin"`, refused as PLAN_SHAPE where
  // the schema is checked) says nothing about the value: no type check is fed by it.
  if (typeof type === "string") return JSON_TYPES.has(type) ? new Set([type]) : undefined;
  if (Array.isArray(type))
    return type.every((t) => typeof t === "string" && JSON_TYPES.has(t))
      ? new Set(type as string[])
      : undefined;
  if (Object.hasOwn(schema, "const")) return new Set([jsonTypeOf(schema.const as JsonValue)]);
  if (Array.isArray(schema.enum)) return new Set((schema.enum as JsonValue[]).map(jsonTypeOf));
  return undefined;
}

/** The JSON types a schema admits, or undefined when unknown (no `type`, `const` or `enum`). */
export function schemaTypes(
  schema: unknown,
  root: unknown,
  declaredTypes?: DeclaredTypes,
  depth = 0,
): Set<string> | undefined {
  const resolved = resolveRef(schema, root);
  if (!isPlainObject(resolved) || depth > MAX_REF_DEPTH) return undefined;
  const known = declaredTypes?.get(resolved);
  if (known !== undefined) return known;
  const declared = typesDeclaredBy(resolved);
  if (declared !== undefined) {
    declaredTypes?.set(resolved, declared);
    return declared;
  }
  const union = resolved.anyOf ?? resolved.oneOf;
  if (Array.isArray(union)) {
    const types = new Set<string>();
    for (const member of union) {
      const memberTypes = schemaTypes(member, root, declaredTypes, depth + 1);
      if (memberTypes === undefined) return undefined;
      for (const type of memberTypes) types.add(type);
    }
    return types;
  }
  return undefined;
}

/** True when a value of type `type` could satisfy a schema admitting `allowed`. */
export function typeCompatible(type: string, allowed: ReadonlySet<string>): boolean {
  if (allowed.has(type)) return true;
  if (type === "integer") return allowed.has("number");
  if (type === "number") return allowed.has("integer");
  return false;
}

/** True when some type of `types` could satisfy a schema admitting `allowed`. */
export function someCompatible(types: ReadonlySet<string>, allowed: ReadonlySet<string>): boolean {
  for (const type of types) if (typeCompatible(type, allowed)) return true;
  return false;
}
