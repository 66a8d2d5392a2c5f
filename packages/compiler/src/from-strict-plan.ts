import type { JsonObject } from "@obelisk/core";
import { getOwn, resolveStrict } from "./strict-build.js";
import { buildStrictPlan, type StrictPlanBuild } from "./strict-plan-json-schema.js";
import { isPlainObject } from "./to-json-schema.js";
import type { ToolRegistry } from "./tool-registry.js";

/** Values nested deeper than this are returned as they are (a recursive tool schema would follow them). */
const MAX_DEPTH = 512;

interface Walk {
  readonly defs: JsonObject;
  readonly absent: StrictPlanBuild["absent"];
}

/** What cleaning reads of a registry's strict plan schema: the walk, the document's and a call's schema. */
interface StrictShapes {
  readonly walk: Walk;
  readonly document: JsonObject;
  readonly call: unknown;
}

/** One build per registry: a registry does not change once created (a stream cleans call by call). */
const shapes = new WeakMap<ToolRegistry, StrictShapes>();

function shapesFor(registry: ToolRegistry): StrictShapes {
  let found = shapes.get(registry);
  if (found === undefined) {
    const { schema, absent } = buildStrictPlan(registry);
    const defs = isPlainObject(schema.$defs) ? (schema.$defs as JsonObject) : {};
    const list = getOwn(isPlainObject(schema.properties) ? schema.properties : {}, "plan");
    found = { walk: { defs, absent }, document: schema, call: isPlainObject(list) ? list.items : undefined };
    shapes.set(registry, found);
  }
  return found;
}

/**
 * Whether `value` has the shape of `schema`: deep, its types, `enum` values and object keys (every listed
 * property present, no other), at any depth; shallow, its type and an object's single-value enums (a
 * call's `_tool`) only, so that a call with a key its tool does not have is still cleaned by its tool's
 * shape (the unknown key is left for `compile` to report). Bounds, patterns and formats are not looked
 * at: the shape only picks the `anyOf` branch a value was written under.
 */
function fits(walk: Walk, value: unknown, schema: unknown, depth: number, deep: boolean): boolean {
  const node = resolveStrict(walk.defs, schema as JsonObject);
  if (node === undefined || depth > MAX_DEPTH) return false;
  if (Array.isArray(node.anyOf))
    return node.anyOf.some((branch) => fits(walk, value, branch, depth + 1, deep));
  if (Array.isArray(node.enum) && !node.enum.includes(value as never)) return false;
  switch (node.type) {
    case "null":
      return value === null;
    case "string":
    case "boolean":
      return typeof value === node.type;
    case "number":
      return typeof value === "number";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "array":
      return (
        Array.isArray(value) &&
        (!deep || value.every((item) => fits(walk, item, node.items, depth + 1, deep)))
      );
    case "object": {
      if (!isPlainObject(value)) return false;
      const properties = isPlainObject(node.properties) ? (node.properties as JsonObject) : {};
      if (deep && !Object.keys(value).every((key) => Object.hasOwn(properties, key))) return false;
      // Shallow: only the single-value enums (a call's `_tool`) decide; deep: every member, all present.
      return Object.entries(properties).every(([key, child]) => {
        const member = resolveStrict(walk.defs, child);
        if (!deep)
          return (
            !Array.isArray(member?.enum) ||
            member.enum.length !== 1 ||
            fits(walk, value[key], member, depth + 1, false)
          );
        return Object.hasOwn(value, key) && fits(walk, value[key], child, depth + 1, true);
      });
    }
    default:
      return true;
  }
}

function clean(walk: Walk, value: unknown, schema: unknown, depth: number): unknown {
  const node = resolveStrict(walk.defs, schema as JsonObject);
  if (node === undefined || depth > MAX_DEPTH) return value;
  if (Array.isArray(node.anyOf)) {
    const branch =
      node.anyOf.find((b) => fits(walk, value, b, depth + 1, true)) ??
      node.anyOf.find((b) => fits(walk, value, b, depth + 1, false));
    return branch === undefined ? value : clean(walk, value, branch, depth + 1);
  }
  if (node.type === "array" && Array.isArray(value))
    return value.map((item) => clean(walk, item, node.items, depth + 1));
  if (node.type !== "object" || !isPlainObject(value)) return value;
  const properties = isPlainObject(node.properties) ? (node.properties as JsonObject) : {};
  const absent = walk.absent.get(node);
  const entries: [string, unknown][] = [];
  for (const [key, item] of Object.entries(value)) {
    if (item === null && absent?.has(key) === true) continue;
    const child = getOwn(properties, key);
    entries.push([key, child === undefined ? item : clean(walk, item, child, depth + 1)]);
  }
  return Object.fromEntries(entries);
}

/**
 * Turns a plan written under `strictPlanJsonSchema(registry)` back into an ordinary plan: each `null` that
 * stands for an absent optional parameter or meta-property (at any depth) is removed. Takes the whole
 * `{ "type": "plan", "plan": [...] }` document (its root `id`/`description` nulls go too), a bare array
 * of calls, or one call (as a stream of the model's text hands them to `open().add`). A `null` is kept
 * where the property's own schema takes `null` (an optional nullable parameter: strict mode cannot tell
 * "absent" from `null` there, so the tool gets `null`). Pure and total: it never throws; anything else is
 * returned as it is. A call is cleaned by its `_tool`'s shape even with a key that tool does not have (the
 * key stays, for `compile` to report alone); a call of no known tool is left as written.
 */
export function fromStrictPlan(document: unknown, registry: ToolRegistry): unknown {
  const isDocument = isPlainObject(document) && Array.isArray(document.plan);
  const isCall = isPlainObject(document) && !isDocument && Object.hasOwn(document, "_tool");
  if (!isDocument && !isCall && !Array.isArray(document)) return document;
  const { walk, call, document: root } = shapesFor(registry);
  if (isDocument) return clean(walk, document, root, 0);
  if (isCall) return clean(walk, document, call, 0);
  return (document as unknown[]).map((item) => clean(walk, item, call, 0));
}
