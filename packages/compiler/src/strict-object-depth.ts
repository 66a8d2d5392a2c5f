import type { JsonObject, JsonValue } from "@obelisk/core";
import { getOwn, refDefKey, type SchemaOrigin } from "./strict-build.js";
import { stronglyConnected } from "./strongly-connected.js";
import { isPlainObject } from "./to-json-schema.js";

/** Where a strict schema comes from in a tool's schema, by its identity (unknown: Obelisk's own parts). */
type Origins = WeakMap<object, SchemaOrigin>;

/** The deepest nesting of objects below a schema, and the innermost object along it that a tool's schema gave. */
interface Depth {
  readonly depth: number;
  readonly origin: SchemaOrigin | undefined;
}

/** No object below. */
const FLAT: Depth = { depth: 0, origin: undefined };

/**
 * Schemas `objectDepth`'s walk of every path may visit: this many, plus `DEPTH_STEPS_PER_SCHEMA` per schema
 * object in the plan schema. Defs that `$ref` each other in a cycle are walked once per path into them
 * (their depth depends on the path: which defs are cut), so k such defs each referring to the next twice
 * cost 2^k (22 levels: 5.2 s); past this the depth is bounded instead (see `boundedObjectDepth`).
 */
export const DEPTH_STEPS = 100_000;
/** See `DEPTH_STEPS`. */
export const DEPTH_STEPS_PER_SCHEMA = 8;

/** How a depth walk goes on at a `$ref` into a def, and how many schemas it visited. */
interface DepthRules {
  follow(key: string): Depth;
  steps: number;
}

/** What the walk of every path throws once it visited more than its budget of schemas. */
const WALK_TOO_LONG = Symbol("depth walk too long");

/**
 * The walk of `objectDepth`: the defs on the path from the root (a `$ref` into one of them is not
 * followed), the innermost of them, the depth below each def found without a cut into another def on the
 * path (it does not depend on the path: a def reached again below itself would have been cut, and a def's
 * `$ref` to itself is cut on every path), how many such cuts were made so far, and the schemas it may visit.
 */
interface DepthWalk extends DepthRules {
  readonly defs: JsonObject;
  readonly stack: Set<string>;
  inner: string | undefined;
  readonly below: Map<string, Depth>;
  cuts: number;
  readonly budget: number;
}

/** The deepest nesting of object schemas below `schema`, a `$ref` going on as `rules` say. */
function depthBelow(origins: Origins, schema: JsonValue, rules: DepthRules): Depth {
  rules.steps++;
  if (!isPlainObject(schema)) return FLAT;
  const key = refDefKey(schema.$ref);
  if (key !== undefined) return rules.follow(key);
  const children: JsonValue[] = [
    ...(isPlainObject(schema.properties) ? Object.values(schema.properties) : []),
    ...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
    ...(schema.items === undefined ? [] : [schema.items as JsonValue]),
  ];
  let deepest = FLAT;
  for (const child of children) deepest = deeper(deepest, depthBelow(origins, child, rules));
  if (schema.type !== "object") return deepest;
  return { depth: deepest.depth + 1, origin: deepest.origin ?? origins.get(schema) };
}

/** The deeper of two; of two as deep, one a tool's schema gave (not only Obelisk's own objects). */
function deeper(a: Depth, b: Depth): Depth {
  return b.depth > a.depth || (b.depth === a.depth && a.origin === undefined) ? b : a;
}

/**
 * `follow` of the walk of every path: into the def `key` (its depth kept once found without a cut: defs
 * that each `$ref` the next twice made the walk exponential, 22 levels: 4.8 s), unless it is on the path.
 * Throws `WALK_TOO_LONG` past the walk's budget.
 */
function followExactly(origins: Origins, walk: DepthWalk, key: string): Depth {
  const known = walk.below.get(key);
  if (known !== undefined) return known;
  if (walk.stack.has(key)) {
    if (key !== walk.inner) walk.cuts++;
    return FLAT;
  }
  if (walk.steps > walk.budget) throw WALK_TOO_LONG;
  const { cuts, inner } = walk;
  walk.stack.add(key);
  walk.inner = key;
  const depth = depthBelow(origins, getOwn(walk.defs, key) ?? null, walk);
  walk.stack.delete(key);
  walk.inner = inner;
  if (walk.cuts === cuts) walk.below.set(key, depth);
  return depth;
}

/** The defs a schema `$ref`s (not through other defs). */
function refsOf(schema: JsonValue, out: Set<string>): Set<string> {
  depthBelow(new WeakMap(), schema, {
    steps: 0,
    follow: (key) => {
      out.add(key);
      return FLAT;
    },
  });
  return out;
}

/** The defs in cycles of `$ref`s (strongly connected groups), each group after every group it refers to. */
function defCycles(defs: JsonObject): string[][] {
  const keys = Object.keys(defs);
  const number = new Map(keys.map((key, at) => [key, at]));
  const succ = keys.map((key) => {
    const next: number[] = [];
    for (const target of refsOf(getOwn(defs, key) ?? null, new Set())) {
      const at = number.get(target);
      if (at !== undefined) next.push(at);
    }
    return next;
  });
  return stronglyConnected(succ).map((group) => group.map((at) => keys[at] as string));
}

/**
 * The deepest nesting below `schema` when the walk of every path was too long, in time linear in the
 * schema: a def in no cycle has its exact depth (a `$ref` to itself cut, as in the walk); the defs of a
 * cycle each count the deepest nesting of their own objects once, together, plus the deepest def they
 * refer to outside the cycle — a path through the cycle visits each of them at most once, so this is at
 * least the depth the walk would find (equal for a ring of defs), the place is one in the cycle.
 */
function boundedObjectDepth(defs: JsonObject, origins: Origins, schema: JsonValue): Depth {
  const depths = new Map<string, Depth>();
  const known = (key: string): Depth => depths.get(key) ?? FLAT;
  for (const group of defCycles(defs)) {
    const members = new Set(group);
    const [only] = group;
    if (group.length === 1 && only !== undefined) {
      const follow = (key: string) => (key === only ? FLAT : known(key));
      depths.set(only, depthBelow(origins, getOwn(defs, only) ?? null, { steps: 0, follow }));
      continue;
    }
    let levels = 0;
    let place: Depth = FLAT;
    let exit: Depth = FLAT;
    for (const key of group) {
      const body = getOwn(defs, key) ?? null;
      const own = depthBelow(origins, body, { steps: 0, follow: () => FLAT });
      levels += own.depth;
      place = deeper(place, own);
      for (const target of refsOf(body, new Set()))
        if (!members.has(target)) exit = deeper(exit, known(target));
    }
    const depth: Depth = { depth: levels + exit.depth, origin: exit.origin ?? place.origin };
    for (const key of group) depths.set(key, depth);
  }
  return depthBelow(origins, schema, { steps: 0, follow: known });
}

/**
 * The deepest nesting of object schemas below `schema` (a `$ref` followed, except into a def it is inside),
 * and whether it is a bound (`boundedObjectDepth`) because following every path took more than `budget`.
 */
export function objectDepth(
  defs: JsonObject,
  origins: Origins,
  schema: JsonValue,
  budget: number,
): Depth & { readonly bounded: boolean } {
  const walk: DepthWalk = {
    defs,
    stack: new Set(),
    inner: undefined,
    below: new Map(),
    cuts: 0,
    steps: 0,
    budget,
    follow: (key) => followExactly(origins, walk, key),
  };
  try {
    return { ...depthBelow(origins, schema, walk), bounded: false };
  } catch (error) {
    if (error !== WALK_TOO_LONG) throw error;
    return { ...boundedObjectDepth(defs, origins, schema), bounded: true };
  }
}
