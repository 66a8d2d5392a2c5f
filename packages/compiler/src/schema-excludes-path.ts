import type { Path } from "@obelisk/core";
import { childSchema, MAX_REF_DEPTH, resolveRef } from "./schema-types.js";
import { isPlainObject } from "./to-json-schema.js";

/** Keywords whose subschemas may evaluate a property (for `unevaluatedProperties`), or that we do not follow. */
export const IN_PLACE = [
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "$ref",
  "$dynamicRef",
];

/** True when the level has `patternProperties` (a pattern might match the key: not judged). */
function hasPatterns(level: Record<string, unknown>): boolean {
  const patterns = level.patternProperties;
  return patterns !== undefined && !(isPlainObject(patterns) && Object.keys(patterns).length === 0);
}

/** Subschemas one judgment of a key may visit; past it the answer is "unknown" (an untrusted schema). */
const MAX_VISITS = 2_000;

/** One judgment of a key: each subschema judged once (a `$ref` DAG is not walked once per path to it). */
interface Judgment {
  readonly key: string;
  readonly root: unknown;
  readonly seen: Map<object, boolean>;
  visits: number;
}

/**
 * True when no value valid against `schema` can be an object holding `key`: the level (or an `allOf`
 * member, or every `anyOf`/`oneOf` member) is `false`, or lists no such property, has no
 * `patternProperties` and says `additionalProperties: false` — or `unevaluatedProperties: false` with no
 * `additionalProperties` and no keyword that could evaluate the key elsewhere. Each subschema is judged
 * once and at most MAX_VISITS of them (then: unknown), so a schema of `allOf`s of `$ref`s costs no more
 * than its size (it cost width^depth: a 1.3 KB input schema took 2 s, a larger one minutes).
 */
function levelExcludes(schema: unknown, judgment: Judgment, depth: number): boolean {
  const level = resolveRef(schema, judgment.root);
  if (level === false) return true;
  if (!isPlainObject(level) || depth > MAX_REF_DEPTH) return false;
  const known = judgment.seen.get(level);
  if (known !== undefined) return known;
  if (++judgment.visits > MAX_VISITS) return false;
  judgment.seen.set(level, false); // a cycle through `$ref`s reads as "not excluded" (unknown)
  const excluded = judgeLevel(level, judgment, depth);
  judgment.seen.set(level, excluded);
  return excluded;
}

/**
 * True when the level's `type` admits no value of `type` (`object` for a name, `array` for an index):
 * `type` holds beside every other keyword, so `{ type: "array" }` has no named member whatever else it says.
 */
export function typeForbids(level: Record<string, unknown>, type: "object" | "array"): boolean {
  const types = level.type;
  if (typeof types === "string") return types !== type;
  return Array.isArray(types) && types.length > 0 && !types.includes(type);
}

/**
 * True when no value of the level's `type` has the index: an array needs `array`, and a non-negative
 * index also reads the object key spelt the same (`†state.years.2024`), so it needs `object` gone too.
 */
function indexExcluded(level: Record<string, unknown>, index: number): boolean {
  return typeForbids(level, "array") && (index < 0 || typeForbids(level, "object"));
}

function judgeLevel(level: Record<string, unknown>, judgment: Judgment, depth: number): boolean {
  const key = judgment.key;
  if (typeForbids(level, "object")) return true;
  const properties = level.properties;
  if (!(isPlainObject(properties) && Object.hasOwn(properties, key)) && !hasPatterns(level)) {
    if (level.additionalProperties === false) return true;
    if (
      level.unevaluatedProperties === false &&
      level.additionalProperties === undefined &&
      !IN_PLACE.some((keyword) => level[keyword] !== undefined)
    )
      return true;
  }
  const all = level.allOf;
  if (Array.isArray(all) && all.some((member) => levelExcludes(member, judgment, depth + 1))) return true;
  for (const union of [level.anyOf, level.oneOf]) {
    if (
      Array.isArray(union) &&
      union.length > 0 &&
      union.every((member) => levelExcludes(member, judgment, depth + 1))
    )
      return true;
  }
  return false;
}

/**
 * True when the schema **certainly** excludes `path`: no value valid against it holds a value there. Each
 * named segment is judged at its level (see `levelExcludes`); the walk goes on below a listed property or
 * an `additionalProperties` schema and stops (unknown: false) wherever the next schema is not certain
 * (`patternProperties`, a combinator alone, `true`, an index into an array). A `false` schema on the way
 * excludes, and so does a `type` without `object` for a name (`†input.a.x` with `a: { type: "string" }`,
 * `†state.orders.total` with an array) or without `array` for an index (and without `object` for one
 * that is not negative: it reads the key spelt the same).
 */
export function schemaExcludesPath(root: unknown, path: Path): boolean {
  let current = resolveRef(root, root);
  for (const segment of path) {
    if (current === false) return true;
    if (!isPlainObject(current)) return false;
    // An index may be an array's (arrays hold no named keys, so a string segment is judged as a key).
    if (
      typeof segment === "string"
        ? levelExcludes(current, { key: segment, root, seen: new Map(), visits: 0 }, 0)
        : indexExcluded(current, segment)
    )
      return true;
    current = resolveRef(childSchema(current, segment), root);
  }
  return current === false;
}
