import type { Path } from "@obelisk/core";
import { nearestNames } from "@obelisk/core";
import { IN_PLACE } from "./schema-excludes-path.js";
import { childSchema, resolveRef } from "./schema-types.js";
import { isPlainObject } from "./to-json-schema.js";

/**
 * Keywords with which a level may admit keys its `properties` do not list (or that we do not follow): a
 * level holding one is not judged. `additionalProperties: false` is REF_UNRESOLVED's (decision 0018), and
 * `true` or a schema says other keys are expected.
 */
const ADMITTING = ["additionalProperties", "patternProperties", "unevaluatedProperties", ...IN_PLACE];

/** Names shorter than this are not judged: one edit from a declared `a` or `id` is as likely meant. */
const MIN_JUDGED_LENGTH = 3;

/** A name of `path` that its schema does not declare, and the declared name near it. */
export interface UndeclaredName {
  /** Index in the path of the undeclared segment. */
  readonly index: number;
  /** The declared name of that level nearest to it. */
  readonly near: string;
}

/** Whether `level` declares `key`: among its `properties`, or its `required` names. */
function declares(level: Record<string, unknown>, key: string): boolean {
  const properties = level.properties;
  if (isPlainObject(properties) && Object.hasOwn(properties, key)) return true;
  return Array.isArray(level.required) && level.required.includes(key);
}

/**
 * The declared name near `name` (undefined: none, or not judged), given the level's `properties`; by
 * default core's did-you-mean over their names.
 */
export type NearestDeclared = (name: string, properties: Record<string, unknown>) => string | undefined;

/** The names of a `properties` object, listed once per object (a level may be read many times). */
const namesOf = new WeakMap<object, readonly string[]>();

/** The names `properties` declares. */
export function declaredNames(properties: Record<string, unknown>): readonly string[] {
  let names = namesOf.get(properties);
  if (names === undefined) {
    names = Object.keys(properties);
    namesOf.set(properties, names);
  }
  return names;
}

const nearestDeclared: NearestDeclared = (name, properties) =>
  nearestNames(name, declaredNames(properties), 1)[0];

/** A schema that keeps keywords beside its `$ref`: `resolveRef` would drop them, so it is not judged. */
function refWithSiblings(schema: unknown): boolean {
  return isPlainObject(schema) && schema.$ref !== undefined && Object.keys(schema).length > 1;
}

/**
 * The first named segment of `path` that `root` does not declare at a level listing its `properties` and
 * nothing that admits other keys, when a declared name there is near it (`nearest`, by default edit
 * distance): a likely typo, `†state.user.nme` against `{ properties: { name } }`. Such a schema still
 * allows the key (JSON Schema's default), so this is no certainty; a level without a near name, one that
 * is not plain (or keeps keywords beside a `$ref`), and names of one or two characters are not judged.
 */
export function undeclaredNearName(
  root: unknown,
  path: Path,
  nearest: NearestDeclared = nearestDeclared,
): UndeclaredName | undefined {
  if (refWithSiblings(root)) return undefined;
  let current = resolveRef(root, root);
  for (let index = 0; index < path.length; index++) {
    if (!isPlainObject(current)) return undefined;
    const segment = path[index] as Path[number];
    if (typeof segment === "string" && !declares(current, segment)) {
      const level = current;
      const properties = level.properties;
      if (
        segment.length < MIN_JUDGED_LENGTH ||
        !isPlainObject(properties) ||
        ADMITTING.some((keyword) => level[keyword] !== undefined)
      )
        return undefined;
      const near = nearest(segment, properties);
      return near === undefined ? undefined : { index, near };
    }
    const child = childSchema(current, segment);
    if (refWithSiblings(child)) return undefined;
    current = resolveRef(child, root);
  }
  return undefined;
}

/** Whether each schema object declares names somewhere (one answer per schema: tools are registered once). */
const namingSchemas = new WeakMap<object, boolean>();

/** Values a search for `properties` looks at in one schema; past it the answer is "yes" (judge it). */
const MAX_SEARCHED = 10_000;

/** True when the schema has a `properties` object anywhere: only then can it leave a near name undeclared. */
export function declaresNames(schema: object): boolean {
  const known = namingSchemas.get(schema);
  if (known !== undefined) return known;
  // Counted as values are queued (a huge `enum` list is one step past the limit, never spread on the
  // stack), so a cyclic or huge object graph ends too.
  const pending: unknown[] = [schema];
  let queued = 1;
  let found = false;
  const queue = (values: readonly unknown[]): void => {
    for (let at = 0; at < values.length && queued <= MAX_SEARCHED; at++, queued++) pending.push(values[at]);
    if (queued > MAX_SEARCHED) found = true;
  };
  while (pending.length > 0 && !found) {
    const value = pending.pop();
    if (Array.isArray(value)) queue(value);
    else if (isPlainObject(value)) {
      if (isPlainObject(value.properties)) found = true;
      else queue(Object.values(value));
    }
  }
  namingSchemas.set(schema, found);
  return found;
}
