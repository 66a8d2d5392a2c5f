import type { JsonValue } from "@obelisk/core";
import { anyValueButNull } from "./strict-any-value.js";
import {
  anyOfSchema,
  defRef,
  getOwn,
  type Mutable,
  type PendingPlace,
  refDefKey,
  type StrictBuild,
  setOwn,
} from "./strict-build.js";
import { isPlainObject } from "./to-json-schema.js";

/**
 * True when the strict schema takes `null` (through `anyOf` branches and `$ref`s; a cycle adds nothing).
 * `stop`: a `$defs` key not looked into (the any-value definition, to ask whether a schema names `null`).
 */
function acceptsNull(
  defs: Mutable,
  schema: JsonValue | undefined,
  stop?: string,
  seen = new Set<JsonValue>(),
): boolean {
  if (!isPlainObject(schema) || seen.has(schema)) return false;
  seen.add(schema);
  const key = refDefKey(schema.$ref);
  if (key !== undefined) return key !== stop && acceptsNull(defs, getOwn(defs, key), stop, seen);
  if (schema.type === "null") return true;
  return Array.isArray(schema.anyOf) && schema.anyOf.some((branch) => acceptsNull(defs, branch, stop, seen));
}

/** The `$defs` key a lone `$ref` leads to through other lone `$ref`s (a cycle: undefined). */
function finalDefKey(defs: Mutable, schema: JsonValue): string | undefined {
  let key = isPlainObject(schema) ? refDefKey(schema.$ref) : undefined;
  for (let hops = 0; key !== undefined && hops < 64; hops += 1) {
    const next = getOwn(defs, key);
    const further = isPlainObject(next) ? refDefKey(next.$ref) : undefined;
    if (further === undefined) return key;
    key = further;
  }
  return undefined;
}

/** `schema` with each branch that is the any-value definition (`json`) made any value but `null`. */
function withoutAnyNull(build: StrictBuild, schema: JsonValue, json: string): JsonValue {
  const branches =
    isPlainObject(schema) && Array.isArray(schema.anyOf) && Object.keys(schema).length === 1
      ? schema.anyOf
      : [schema];
  if (!branches.some((b) => finalDefKey(build.defs, b) === json)) return schema;
  const notNull = defRef(anyValueButNull(build, json));
  return anyOfSchema(branches.map((b) => (finalDefKey(build.defs, b) === json ? notNull : b)));
}

function noteNullAbsent(build: StrictBuild, place: PendingPlace): void {
  const { tool, schema, pointer, references } = place;
  build.deviations.push({
    tool,
    schema,
    pointer,
    reason: "null-absent",
    message: `the property is optional and takes any value: strict mode has the model write null for it when absent, so null here means absent (${references ? "a null value can only be given as a reference" : "a null value cannot be written"})`,
  });
}

/**
 * Makes each optional property required and nullable, `null` meaning "absent" (noted in `build.absent` for
 * `fromStrictPlan`). A property whose own schema names `null` (a `null` type or value) is left as it is
 * and not noted: there `null` is a value the tool takes, so it is kept. One that takes any value without
 * naming `null` (`{}`, and what the compiler widens to it: `z.coerce.*`, `z.preprocess`, `.catch`) becomes
 * any value but `null`, or `null` meaning absent (reported: `null-absent`). Runs once every schema is built
 * (a `$ref` may name one built later).
 */
export function finishOptionals(build: StrictBuild): void {
  const json = build.shared.get("json");
  for (const { object, key, place } of build.pending) {
    const properties = object.properties;
    if (!isPlainObject(properties)) continue;
    const schema = getOwn(properties, key);
    if (schema === undefined || acceptsNull(build.defs, schema, json)) continue;
    let nullable = schema;
    if (json !== undefined && acceptsNull(build.defs, schema)) {
      nullable = withoutAnyNull(build, schema, json);
      if (place !== undefined) noteNullAbsent(build, place);
    }
    setOwn(properties as Mutable, key, anyOfSchema([nullable, { type: "null" }]));
    let absent = build.absent.get(object);
    if (absent === undefined) {
      absent = new Set();
      build.absent.set(object, absent);
    }
    absent.add(key);
  }
  build.pending.length = 0;
}
