import type { JsonObject, JsonValue } from "@obelisk/core";
import { isPlainObject } from "./to-json-schema.js";

type Mutable = Record<string, JsonValue>;

/** Keywords whose subschema applies to a nested value (a new instance location: a reference may stand there). */
const VALUE_SCHEMA = new Set(["items", "additionalItems", "additionalProperties", "contains"]);
const VALUE_SCHEMA_ADDED = new Set(["unevaluatedItems", "unevaluatedProperties"]);
const VALUE_SCHEMA_MAPS = new Set(["properties", "patternProperties"]);
const VALUE_SCHEMA_LISTS = new Set(["prefixItems"]);
/** Keywords whose subschemas apply at the same location (or to keys), or are only reached by `$ref`. */
const SAME_SCHEMA = new Set(["not", "if", "then", "else", "propertyNames", "contentSchema"]);
const SAME_SCHEMA_MAPS = new Set(["dependentSchemas", "$defs", "definitions", "dependencies"]);
const SAME_SCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf"]);
const DEFINITIONS = new Set(["$defs", "definitions"]);

/** Where a tool's schema goes in the plan schema, and what the move found on the way. */
interface Move {
  readonly defs: Mutable;
  readonly references: ((schema: JsonValue) => JsonObject) | undefined;
  readonly rootKey: string;
  /** Each schema's pointer in the tool's schema → its pointer in the plan schema. */
  readonly pointers: Map<string, string>;
  readonly anchors: Map<string, string>;
  readonly refs: { readonly node: Mutable; readonly ref: string }[];
}

/** `~` and `/` escaped (RFC 6901), then what a URI fragment cannot hold percent-encoded. */
function pointerSegment(key: string): string {
  return encodeURI(key.replace(/~/g, "~0").replace(/\//g, "~1")).replace(/#/g, "%23");
}

/** The JSON Pointer a local `$ref` (`#`, `#/a/b`) names, or undefined for an anchor or a non-local reference. */
function refPointer(ref: string): string | undefined {
  if (!ref.startsWith("#") || (ref.length > 1 && ref[1] !== "/")) return undefined;
  try {
    const segments = decodeURIComponent(ref.slice(1)).split("/").slice(1);
    return segments.map((s) => `/${pointerSegment(s.replace(/~1/g, "/").replace(/~0/g, "~"))}`).join("");
  } catch {
    return undefined;
  }
}

/** A plan-schema `$defs` key not taken yet: `base` made of name characters, with `_2`, `_3`… on a clash. */
export function allocateDefKey(defs: Mutable, base: string): string {
  const clean = base.replace(/[^A-Za-z0-9_-]/g, "_");
  let key = clean;
  for (let n = 2; Object.hasOwn(defs, key); n += 1) key = `${clean}_${n}`;
  defs[key] = null;
  return key;
}

/**
 * Whether a subschema must also accept a reference string: one that takes a value, unless it is `true`, or
 * `false` under a keyword that reports at the parent (`additionalProperties: false`, `items: false`: the
 * compiler refuses a reference there too).
 */
function takesReference(move: Move, value: JsonValue, atValue: boolean, keyword: string): boolean {
  if (!atValue || move.references === undefined || value === true) return false;
  return value !== false || VALUE_SCHEMA_MAPS.has(keyword) || VALUE_SCHEMA_LISTS.has(keyword);
}

function moveChild(
  move: Move,
  value: JsonValue,
  place: { readonly from: string; readonly to: string; readonly keyword: string },
  atValue: boolean,
): JsonValue {
  const { from, to } = place;
  const wrap = takesReference(move, value, atValue, place.keyword);
  const moved = moveSchema(move, value, from, wrap ? `${to}/anyOf/0` : to);
  if (wrap) move.pointers.set(from, to);
  return wrap && move.references !== undefined ? move.references(moved) : moved;
}

/** Copies one schema, recording where each subschema lands and which `$ref`s to rewrite. */
function moveSchema(move: Move, schema: JsonValue, from: string, to: string): JsonValue {
  move.pointers.set(from, to);
  if (!isPlainObject(schema)) return schema;
  const out: Mutable = {};
  for (const [key, value] of Object.entries(schema as JsonObject)) {
    const at = `/${pointerSegment(key)}`;
    if (key === "$schema" || key === "$id") continue;
    if (key === "$anchor" || key === "$dynamicAnchor") {
      if (typeof value === "string" && !move.anchors.has(value)) move.anchors.set(value, to);
    } else if (key === "$ref" || key === "$dynamicRef") {
      if (typeof value === "string") move.refs.push({ node: out, ref: value });
    } else if (DEFINITIONS.has(key) && from === "" && isPlainObject(value)) {
      for (const [name, def] of Object.entries(value as JsonObject)) {
        const defKey = allocateDefKey(move.defs, `${move.rootKey}__${name}`);
        move.defs[defKey] = moveSchema(move, def, `${at}/${pointerSegment(name)}`, `/$defs/${defKey}`);
      }
    } else if (VALUE_SCHEMA.has(key) || VALUE_SCHEMA_ADDED.has(key) || SAME_SCHEMA.has(key)) {
      const atValue = !SAME_SCHEMA.has(key);
      out[key] = Array.isArray(value)
        ? value.map((item, i) =>
            moveChild(
              move,
              item,
              { from: `${from}${at}/${i}`, to: `${to}${at}/${i}`, keyword: key },
              atValue,
            ),
          )
        : moveChild(move, value, { from: `${from}${at}`, to: `${to}${at}`, keyword: key }, atValue);
    } else if ((VALUE_SCHEMA_MAPS.has(key) || SAME_SCHEMA_MAPS.has(key)) && isPlainObject(value)) {
      const mapped: Mutable = {};
      for (const [name, item] of Object.entries(value as JsonObject)) {
        const child = `${at}/${pointerSegment(name)}`;
        mapped[name] = Array.isArray(item)
          ? item
          : moveChild(
              move,
              item,
              { from: `${from}${child}`, to: `${to}${child}`, keyword: key },
              VALUE_SCHEMA_MAPS.has(key),
            );
      }
      out[key] = mapped;
    } else if ((VALUE_SCHEMA_LISTS.has(key) || SAME_SCHEMA_LISTS.has(key)) && Array.isArray(value)) {
      const atValue = VALUE_SCHEMA_LISTS.has(key);
      out[key] = value.map((item, i) =>
        moveChild(move, item, { from: `${from}${at}/${i}`, to: `${to}${at}/${i}`, keyword: key }, atValue),
      );
    } else out[key] = value;
  }
  return out;
}

/** Points every recorded `$ref` at its target's new place; a target outside the tool's schema is dropped. */
function rewriteRefs(move: Move, root: JsonValue): void {
  let rootUsed = false;
  for (const { node, ref } of move.refs) {
    const pointer = refPointer(ref);
    const target =
      pointer === undefined
        ? move.anchors.get(ref.startsWith("#") ? ref.slice(1) : "")
        : move.pointers.get(pointer);
    if (target === undefined) continue;
    const root = `/$defs/${move.rootKey}`;
    if (target === root || target.startsWith(`${root}/`)) rootUsed = true;
    node.$ref = `#${target}`;
  }
  if (rootUsed) move.defs[move.rootKey] = root;
  else delete move.defs[move.rootKey];
}

/**
 * Moves a tool's schema into the plan schema's `$defs` (SPEC §6): its root may go to `$defs[<key>]` (only
 * when one of its `$ref`s names the root or a place below it), its `$defs`/`definitions` to
 * `$defs[<key>__<name>]`, and every local `$ref` (`#`, `#/…`, `#anchor`) is rewritten to point there, so it
 * resolves within the tool's own schema. With `references`, every subschema that takes a value (properties,
 * items, additional/pattern properties… at any depth, inside definitions and combinators) is written as
 * `references` writes it (`orReference`: its schema or a reference string, never a bare dagger `"†"`,
 * always REF_SYNTAX); the root itself is not. Returns the moved root.
 */
export function moveToolSchema(
  schema: JsonValue,
  baseKey: string,
  defs: Mutable,
  options: { readonly references: ((schema: JsonValue) => JsonObject) | undefined },
): JsonValue {
  const rootKey = allocateDefKey(defs, baseKey);
  const move: Move = {
    defs,
    references: options.references,
    rootKey,
    pointers: new Map(),
    anchors: new Map(),
    refs: [],
  };
  const root = moveSchema(move, schema, "", `/$defs/${rootKey}`);
  rewriteRefs(move, root);
  return root;
}
