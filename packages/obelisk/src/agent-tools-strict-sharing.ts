import { META_KEYS } from "@obelisk/compiler";
import type { JsonObject, JsonValue } from "@obelisk/core";

/**
 * The meta-properties every call of the strict plan schema writes (nullable: `null` is absent): all but
 * `_tool` (each call's own const) and `_output` (a latent tool's only).
 */
const META_PROPERTIES = META_KEYS.filter((key) => key !== "_tool" && key !== "_output");

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The `$defs` key a lone `{ $ref: "#/$defs/<key>" }` points at (keys of the strict builder: no `~` or `/`). */
const refKey = (schema: JsonValue | undefined): string | undefined => {
  if (!isObject(schema) || Object.keys(schema).length !== 1 || typeof schema.$ref !== "string")
    return undefined;
  return schema.$ref.startsWith("#/$defs/") ? schema.$ref.slice(8) : undefined;
};

/** The `$defs` key `key` of `{ anyOf: [{ $ref: key }, { type: "null" }] }`, as the strict builder wraps a meta-property. */
function nullableRefKey(schema: JsonValue | undefined): string | undefined {
  if (!isObject(schema) || Object.keys(schema).length !== 1 || !Array.isArray(schema.anyOf)) return undefined;
  const [value, none, ...rest] = schema.anyOf;
  const isNull = isObject(none) && Object.keys(none).length === 1 && none.type === "null";
  return rest.length === 0 && isNull ? refKey(value) : undefined;
}

/** How many times `#/$defs/<key>` is written in `text` (JSON text, `"` delimited). */
const uses = (text: string, key: string): number => text.split(`"#/$defs/${key}"`).length - 1;

/** A `$defs` key not taken yet: `base`, `base_2`, … */
function freeKey(defs: JsonObject, base: string): string {
  let key = base;
  for (let n = 2; Object.hasOwn(defs, key); n++) key = `${base}_${n}`;
  return key;
}

/**
 * The strict plan schema (`plan`, without its `$defs`) with each meta-property schema that two or more calls
 * write alike given once in `$defs` and a lone `$ref` in each call (decision 0096, stop 41): the nullable
 * wrapper `{ anyOf: [{ $ref: meta }, { type: "null" }] }` moves into the definition it points at when
 * nothing else refers to that definition (no `$ref` to a `$ref`: converters such as llama.cpp's break on
 * nested references), and `_outputPath`'s inline schema (400 bytes with its description) becomes a
 * definition. The verdicts are the same: each call's property is the same schema, one reference away.
 */
export function shareMetaProperties(
  plan: JsonObject,
  defs: JsonObject,
): { plan: JsonObject; defs: JsonObject } {
  const properties = isObject(plan.properties) ? plan.properties : undefined;
  const list = properties === undefined ? undefined : properties.plan;
  const items = isObject(list) ? list.items : undefined;
  if (!isObject(items)) return { plan, defs };
  const many = Array.isArray(items.anyOf);
  const raw: JsonValue[] = many ? (items.anyOf as JsonValue[]) : [items];
  const calls = raw.map((call) => (isObject(call) ? call : undefined));
  // each meta-property's schema text and how many calls write it so
  const counts = new Map<string, number>();
  for (const call of calls) {
    const own = call !== undefined && isObject(call.properties) ? call.properties : undefined;
    for (const name of META_PROPERTIES) {
      const schema = own?.[name];
      if (schema === undefined) continue;
      const text = JSON.stringify(schema);
      counts.set(text, (counts.get(text) ?? 0) + 1);
    }
  }
  const shared: Record<string, JsonValue> = { ...defs };
  const planText = JSON.stringify(plan);
  const defsText = JSON.stringify(defs);
  const refs = new Map<string, JsonObject>();
  const refOf = (name: string, schema: JsonValue): JsonObject | undefined => {
    const text = JSON.stringify(schema);
    if ((counts.get(text) ?? 0) < 2) return undefined;
    let ref = refs.get(text);
    if (ref === undefined) {
      const target = nullableRefKey(schema);
      const inner = target === undefined ? undefined : defs[target];
      const alone =
        target !== undefined &&
        inner !== undefined &&
        uses(defsText, target) === 0 &&
        uses(planText, target) === counts.get(text);
      const key = alone ? target : freeKey(shared, `meta${name}`);
      shared[key] = alone ? { anyOf: [inner, { type: "null" }] } : schema;
      ref = { $ref: `#/$defs/${key}` };
      refs.set(text, ref);
    }
    return ref;
  };
  const sharedCalls = calls.map((call, i) => {
    if (call === undefined || !isObject(call.properties)) return raw[i] ?? null;
    const own: Record<string, JsonValue> = { ...call.properties };
    for (const name of META_PROPERTIES) {
      const schema = own[name];
      if (schema === undefined) continue;
      const ref = refOf(name, schema);
      if (ref !== undefined) own[name] = ref;
    }
    return { ...call, properties: own };
  });
  if (refs.size === 0) return { plan, defs };
  const newItems = many ? { ...items, anyOf: sharedCalls } : (sharedCalls[0] ?? items);
  const newList = { ...(list as JsonObject), items: newItems };
  return { plan: { ...plan, properties: { ...properties, plan: newList } }, defs: shared };
}
