import { linearRegExp } from "@obelisk/compiler";
import { type JsonObject, resolvePointer } from "@obelisk/core";

/** Steps every input check may take, however small the input. */
const INPUT_CHECK_BASE_STEPS = 1_000_000;
/** Steps each value of the input (every object, array and scalar in it) adds to its check's budget. */
const INPUT_CHECK_STEPS_PER_VALUE = 16;

/** The cost of checking one input against one schema, counted before ajv runs. */
interface InputCheckCost {
  /** Steps counted (stopped at the first one over the budget). */
  readonly steps: number;
  /** The steps allowed for this input: `INPUT_CHECK_BASE_STEPS` + `INPUT_CHECK_STEPS_PER_VALUE` per value. */
  readonly budget: number;
  /** False when `steps` went over `budget`, or a `$ref` could not be followed (`unfollowed`). */
  readonly withinBudget: boolean;
  /** A reference the count could not follow (the check is then refused: its cost is unknown). */
  readonly unfollowed?: string;
}

type Schema = JsonObject | boolean;

const BASE_URI = "https://input-schema.obelisk.invalid/root.json";

/** Keywords whose subschemas apply to the same value (arrays of schemas, or one schema). */
const IN_PLACE_LISTS = ["allOf", "anyOf", "oneOf"] as const;
const IN_PLACE_ONE = ["not", "if", "then", "else"] as const;
const REFERENCES = ["$ref", "$dynamicRef"] as const;
const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isSchema = (value: unknown): value is Schema => typeof value === "boolean" || isObject(value);

/** `ref` resolved against `base` (undefined when it is not a URI reference). */
function resolveUri(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}

/** Where each schema resource (`$id`) and anchor (`$anchor`, `$dynamicAnchor`) is, and each node's base URI. */
interface SchemaIndex {
  readonly resources: Map<string, JsonObject>;
  readonly anchors: Map<string, JsonObject>;
  readonly bases: WeakMap<JsonObject, string>;
}

/** Indexes `root` (iteratively: any depth). */
function indexSchema(root: Schema): SchemaIndex {
  const index: SchemaIndex = { resources: new Map(), anchors: new Map(), bases: new WeakMap() };
  const stack: [unknown, string][] = [[root, BASE_URI]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, outer] = next;
    if (Array.isArray(node)) {
      for (const item of node) stack.push([item, outer]);
      continue;
    }
    if (!isObject(node) || index.bases.has(node)) continue;
    const id = typeof node.$id === "string" ? resolveUri(node.$id, outer) : undefined;
    const base = id === undefined ? outer : id.replace(/#.*$/, "");
    if (id !== undefined) index.resources.set(base, node);
    if (node === root) index.resources.set(base, node);
    index.bases.set(node, base);
    for (const key of ["$anchor", "$dynamicAnchor"])
      if (typeof node[key] === "string") index.anchors.set(`${base}#${node[key]}`, node);
    for (const [key, value] of Object.entries(node))
      if (key !== "enum" && key !== "const" && key !== "examples" && key !== "default")
        stack.push([value, base]);
  }
  return index;
}

/** The schema `ref` (written in `from`) names, or undefined when it cannot be found. */
function follow(index: SchemaIndex, from: JsonObject, ref: string): Schema | undefined {
  const uri = resolveUri(ref, index.bases.get(from) ?? BASE_URI);
  if (uri === undefined) return undefined;
  const hash = uri.indexOf("#");
  const resource = index.resources.get(hash === -1 ? uri : uri.slice(0, hash));
  const fragment = hash === -1 ? "" : uri.slice(hash + 1);
  if (resource === undefined) return undefined;
  if (fragment === "") return resource;
  if (!fragment.startsWith("/")) return index.anchors.get(uri);
  let pointer: string;
  try {
    pointer = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  const found = resolvePointer(resource, pointer);
  return found.found && isSchema(found.value) ? found.value : undefined;
}

const isContainer = (value: unknown): value is object => typeof value === "object" && value !== null;

/** The number of values in `value` (itself included), counted up to `stop` (scalars are never stacked). */
function countValues(value: unknown, stop: number): number {
  let count = 1;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count < stop) {
    const next = stack.pop();
    if (!isContainer(next)) continue;
    const children: unknown[] = Array.isArray(next) ? next : Object.values(next);
    count += children.length;
    for (const child of children) if (isContainer(child)) stack.push(child);
  }
  return count;
}

/** True when the `items` schema of `schema` allows scalar types only (ajv then finds duplicates by hashing). */
function scalarItems(schema: JsonObject): boolean {
  const items = schema.items;
  if (!isObject(items)) return false;
  const types = Array.isArray(items.type) ? items.type : [items.type];
  return types.length > 0 && types.every((type) => typeof type === "string" && SCALAR_TYPES.has(type));
}

/** Tests keys against a `patternProperties` pattern (the engine ajv runs it on; a pattern it refused matches all). */
function keyMatcher(cache: Map<string, (key: string) => boolean>, pattern: string): (key: string) => boolean {
  let matcher = cache.get(pattern);
  if (matcher === undefined) {
    try {
      const compiled = linearRegExp(pattern, "u");
      matcher = (key) => compiled.test(key);
    } catch {
      matcher = () => true;
    }
    cache.set(pattern, matcher);
  }
  return matcher;
}

/**
 * Counts what checking `value` against `schema` costs, as ajv does it with `allErrors` (every subschema
 * that applies to a value is one step: all branches of `allOf`/`anyOf`/`oneOf`, `not`, `if`/`then`/`else`,
 * a `$ref`'s target, each element or property reached by `items`, `properties`, `patternProperties`, …;
 * `enum` a step per allowed value; `uniqueItems` a step per pair of items unless they are scalars), and
 * stops as soon as the count goes over the budget. Nested `anyOf`s of `$ref`s (2^depth branches) and
 * `uniqueItems` over 20,000 objects (2×10^8 comparisons) go over it; the count itself never takes more than
 * the budget's steps, so a check is bounded by the sizes of the schema and the input.
 */
export function inputCheckCost(schema: Schema, value: unknown): InputCheckCost {
  const budget = INPUT_CHECK_BASE_STEPS + INPUT_CHECK_STEPS_PER_VALUE * countValues(value, 1e9);
  const index = indexSchema(schema);
  const patterns = new Map<string, (key: string) => boolean>();
  const described = new Map<JsonObject, NodeCost>();
  const schemas: Schema[] = [schema];
  const values: unknown[] = [value];
  let steps = 1;
  const push = (sub: unknown, at: unknown): void => {
    if (!isSchema(sub)) return;
    steps++;
    if (typeof sub === "object" && !isContainer(at)) {
      // A scalar against a node with no subschemas (the common case: an array of strings) is not stacked.
      const known = described.get(sub);
      if (known !== undefined && known.inPlace.length === 0) {
        steps += known.fixed;
        return;
      }
    }
    schemas.push(sub);
    values.push(at);
  };
  while (schemas.length > 0) {
    if (steps > budget) return { steps, budget, withinBudget: false };
    const node = schemas.pop() as Schema;
    const data = values.pop();
    if (typeof node === "boolean") continue;
    let cost = described.get(node);
    if (cost === undefined) {
      const found = describe(index, node);
      if (typeof found === "string") return { steps, budget, withinBudget: false, unfollowed: found };
      cost = found;
      described.set(node, cost);
    }
    steps += cost.fixed;
    for (const sub of cost.inPlace) push(sub, data);
    if (cost.arrays && Array.isArray(data)) {
      steps += data.length; // (every item is visited, whichever keywords reach it)
      if (steps > budget) break;
      const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : [];
      const { items, contains, unevaluatedItems } = node;
      for (let at = 0; at < data.length && steps <= budget; at++) {
        const item: unknown = data[at];
        if (at < prefix.length) push(prefix[at], item);
        else if (items !== undefined) push(items, item);
        if (contains !== undefined) push(contains, item);
        if (unevaluatedItems !== undefined) push(unevaluatedItems, item);
      }
      if (node.uniqueItems === true && data.length > 1 && !scalarItems(node)) {
        const pairs = (data.length * (data.length - 1)) / 2;
        steps += pairs * Math.ceil(countValues(data, budget) / data.length);
      }
    } else if (cost.objects && isObject(data)) {
      const properties = isObject(node.properties) ? node.properties : {};
      const patternSchemas = isObject(node.patternProperties) ? Object.entries(node.patternProperties) : [];
      const dependent = isObject(node.dependentSchemas) ? node.dependentSchemas : {};
      const entries = Object.entries(data);
      steps += entries.length; // (every property is visited, whichever keywords reach it)
      for (const [key, item] of entries) {
        if (steps > budget) break;
        let declared = Object.hasOwn(properties, key);
        if (declared) push(properties[key], item);
        for (const [pattern, sub] of patternSchemas) {
          steps++;
          if (keyMatcher(patterns, pattern)(key)) {
            declared = true;
            push(sub, item);
          }
        }
        if (!declared) push(node.additionalProperties, item);
        push(node.unevaluatedProperties, item);
        push(node.propertyNames, key);
        if (Object.hasOwn(dependent, key)) push(dependent[key], data);
      }
    }
  }
  return steps > budget ? { steps, budget, withinBudget: false } : { steps, budget, withinBudget: true };
}

/** Keywords that can make a value checked against more than a few subschemas, or compared many times. */
const MULTIPLYING = new Set([
  ...IN_PLACE_LISTS,
  ...IN_PLACE_ONE,
  ...REFERENCES,
  "$recursiveRef",
  "dependentSchemas",
  "patternProperties",
  "contains",
  "unevaluatedItems",
  "unevaluatedProperties",
]);
/** A list of allowed values, properties or required names longer than this is checked per value it applies to. */
const FEW = 100;

/**
 * True when checking values against `schema` may cost more than a few steps per value, so the cost is
 * counted first (`inputCheckCost`): it has a keyword that multiplies the subschemas applied to a value
 * (combinators, references, `patternProperties`, `contains`, …), `uniqueItems`, a `const` or an `enum`
 * value that is an object or array, or a list of more than 100 allowed values, properties or required
 * names. A schema of plain `type`, `properties`, `items`, `required`, formats and patterns is not counted:
 * ajv's work on it is linear in the input, and its errors at most one per keyword and value.
 */
export function costMayMultiply(schema: Schema): boolean {
  const stack: unknown[] = [schema];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (!isContainer(next)) continue;
    if (Array.isArray(next)) {
      for (const item of next) stack.push(item);
      continue;
    }
    for (const [key, value] of Object.entries(next)) {
      if (MULTIPLYING.has(key) || key === "uniqueItems") return true;
      if (key === "const" && isContainer(value)) return true;
      if (key === "enum" || key === "required") {
        if (!Array.isArray(value)) continue;
        if (value.length > FEW || value.some(isContainer)) return true;
        continue;
      }
      if (key === "properties" && isObject(value) && Object.keys(value).length > FEW) return true;
      if (key !== "const" && key !== "default" && key !== "examples") stack.push(value);
    }
  }
  return false;
}

/** What one schema node costs wherever it applies: its subschemas on the same value, its fixed steps. */
interface NodeCost {
  /** Subschemas checked against the same value (combinators' branches, `$ref` targets). */
  readonly inPlace: readonly Schema[];
  /** Steps besides its subschemas: a step per `enum` value, declared property and required name. */
  readonly fixed: number;
  /** It has keywords that apply to an array's items (or `uniqueItems`). */
  readonly arrays: boolean;
  /** It has keywords that apply to an object's properties. */
  readonly objects: boolean;
}

const ARRAY_KEYWORDS = ["prefixItems", "items", "contains", "unevaluatedItems", "uniqueItems"];
const OBJECT_KEYWORDS = [
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "dependentSchemas",
];

/** The cost of `node` (see `NodeCost`), or the reference in it that cannot be followed. */
function describe(index: SchemaIndex, node: JsonObject): NodeCost | string {
  const inPlace: Schema[] = [];
  for (const key of IN_PLACE_LISTS) {
    const list = node[key];
    if (Array.isArray(list)) for (const sub of list) if (isSchema(sub)) inPlace.push(sub);
  }
  for (const key of IN_PLACE_ONE) if (isSchema(node[key])) inPlace.push(node[key]);
  for (const key of REFERENCES) {
    const ref = node[key];
    if (typeof ref !== "string") continue;
    const target = follow(index, node, ref);
    if (target === undefined) return ref;
    inPlace.push(target);
  }
  const count = (list: unknown): number => (Array.isArray(list) ? list.length : 0);
  const properties = isObject(node.properties) ? Object.keys(node.properties).length : 0;
  return {
    inPlace,
    fixed: count(node.enum) + properties + count(node.required),
    arrays: ARRAY_KEYWORDS.some((key) => Object.hasOwn(node, key)),
    objects: OBJECT_KEYWORDS.some((key) => Object.hasOwn(node, key)),
  };
}
