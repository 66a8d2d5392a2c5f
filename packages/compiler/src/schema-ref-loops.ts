import type { JsonObject } from "@obelisk/core";
import { appendPointer, resolvePointer } from "@obelisk/core";
import { isPlainObject } from "./to-json-schema.js";

/** Keywords whose one subschema applies to the same value as its parent (no step into the value). */
const IN_PLACE = ["not", "if", "then", "else"];
/** Keywords whose list of subschemas applies to the same value. */
const IN_PLACE_LISTS = ["allOf", "anyOf", "oneOf"];
/** Keywords whose map of subschemas applies to the same value. */
const IN_PLACE_MAPS = ["dependentSchemas", "dependencies"];
/** Keywords whose one subschema applies to a part of the value, or to its keys. */
const INTO_VALUE = [
  "items",
  "additionalItems",
  "additionalProperties",
  "contains",
  "unevaluatedItems",
  "unevaluatedProperties",
  "propertyNames",
  "contentSchema",
];
/** Keywords whose map of subschemas holds parts of the value, or definitions only a `$ref` reaches. */
const OTHER_MAPS = ["properties", "patternProperties", "$defs", "definitions"];
/** Keywords whose list of subschemas applies to parts of the value. */
const OTHER_LISTS = ["prefixItems", "items"];

/** One subschema: where it is (JSON Pointer), and the subschemas it applies to the same value. */
interface Node {
  readonly pointer: string;
  readonly inPlace: JsonObject[];
}

/** Every subschema (object) of `root` in document order, by object, with its pointer; `$anchor`s by name. */
function subschemas(root: JsonObject): { nodes: Map<JsonObject, Node>; anchors: Map<string, JsonObject> } {
  const nodes = new Map<JsonObject, Node>();
  const anchors = new Map<string, JsonObject>();
  const stack: [unknown, string][] = [[root, ""]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [schema, pointer] = next;
    if (!isPlainObject(schema) || nodes.has(schema as JsonObject)) continue;
    const node: Node = { pointer, inPlace: [] };
    nodes.set(schema as JsonObject, node);
    if (typeof schema.$anchor === "string" && !anchors.has(schema.$anchor))
      anchors.set(schema.$anchor, schema as JsonObject);
    const visit = (value: unknown, at: string, inPlace: boolean): void => {
      if (!isPlainObject(value)) return;
      if (inPlace) node.inPlace.push(value as JsonObject);
      stack.push([value, at]);
    };
    for (const [key, value] of Object.entries(schema)) {
      const at = appendPointer(pointer, key);
      const inPlace = IN_PLACE.includes(key) || IN_PLACE_LISTS.includes(key) || IN_PLACE_MAPS.includes(key);
      if (IN_PLACE.includes(key) || INTO_VALUE.includes(key)) visit(value, at, inPlace);
      if ((IN_PLACE_LISTS.includes(key) || OTHER_LISTS.includes(key)) && Array.isArray(value))
        for (const [index, item] of value.entries()) visit(item, appendPointer(at, index), inPlace);
      if ((IN_PLACE_MAPS.includes(key) || OTHER_MAPS.includes(key)) && isPlainObject(value))
        for (const [name, item] of Object.entries(value)) visit(item, appendPointer(at, name), inPlace);
    }
  }
  return { nodes, anchors };
}

/** The subschema a local `$ref` (`#`, `#/a/b`, `#anchor`) names, or undefined (remote, or not found). */
function refTarget(root: JsonObject, ref: string, anchors: Map<string, JsonObject>): JsonObject | undefined {
  if (!ref.startsWith("#")) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment !== "" && !fragment.startsWith("/")) return anchors.get(fragment);
  const found = resolvePointer(root, fragment);
  return found.found && isPlainObject(found.value) ? (found.value as JsonObject) : undefined;
}

/** The loop's first schema with a `$ref`, from `first` (the schema met again) to the top of the walk. */
function closingRef(
  stack: readonly [JsonObject, JsonObject[]][],
  first: JsonObject,
  nodes: ReadonlyMap<JsonObject, Node>,
): RefLoop {
  const from = stack.findIndex(([schema]) => schema === first);
  const withRef = stack.slice(from).find(([schema]) => typeof schema.$ref === "string");
  const schema = (withRef ?? (stack[stack.length - 1] as [JsonObject, JsonObject[]]))[0];
  return { pointer: nodes.get(schema)?.pointer ?? "", ref: String(schema.$ref) };
}

/** A `$ref` that leads back to where it started without a step into the value, as found. */
export interface RefLoop {
  /** JSON Pointer of the schema whose `$ref` closes the loop. */
  readonly pointer: string;
  /** The `$ref` as written. */
  readonly ref: string;
}

/**
 * Whether a JSON Schema has a `$ref` (`any`), and the first one that leads back to a schema it is applied from at the same place in the
 * value (`{ "$ref": "#" }`, `{ "allOf": [{ "$ref": "#" }] }`, two definitions naming each other): checking
 * any value would recurse without end (ajv: "Maximum call stack size exceeded", on every call). A `$ref`
 * below `properties`, `items` … steps into the value and ends with it. Schemas with an `$id` below the
 * root (another base for `#`) and references to other documents are not followed.
 */
export function schemaRefs(root: JsonObject): { readonly any: boolean; readonly loop: RefLoop | undefined } {
  const { nodes, anchors } = subschemas(root);
  const schemas = [...nodes.keys()];
  const any = schemas.some((schema) => typeof schema.$ref === "string");
  const otherBase = schemas.some((schema) => schema !== root && schema.$id !== undefined);
  return { any, loop: any && !otherBase ? refLoop(root, nodes, anchors) : undefined };
}

function refLoop(
  root: JsonObject,
  nodes: ReadonlyMap<JsonObject, Node>,
  anchors: Map<string, JsonObject>,
): RefLoop | undefined {
  const edges = (schema: JsonObject): JsonObject[] => {
    const node = nodes.get(schema);
    const ref = schema.$ref;
    const target = typeof ref === "string" ? refTarget(root, ref, anchors) : undefined;
    return [...(node?.inPlace ?? []), ...(target === undefined ? [] : [target])];
  };
  // depth-first, iterative: a schema met again while it is still open closes a loop
  const done = new Set<JsonObject>();
  for (const [start] of nodes) {
    if (done.has(start)) continue;
    const open = new Set<JsonObject>([start]);
    const stack: [JsonObject, JsonObject[]][] = [[start, edges(start)]];
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as [JsonObject, JsonObject[]];
      const next = top[1].pop();
      if (next === undefined) {
        stack.pop();
        open.delete(top[0]);
        done.add(top[0]);
        continue;
      }
      if (open.has(next)) return closingRef(stack, next, nodes);
      if (done.has(next)) continue;
      open.add(next);
      stack.push([next, edges(next)]);
    }
  }
  return undefined;
}
