import type { JsonValue } from "@obelisk/core";
import {
  anyOfSchema,
  getOwn,
  type Mutable,
  resolveStrict,
  type StrictBuild,
  setOwn,
} from "./strict-build.js";
import { isPlainObject } from "./to-json-schema.js";

/** True when the strict schema takes `null` (through `anyOf` branches and `$ref`s; a cycle adds nothing). */
export function acceptsNull(
  defs: Mutable,
  schema: JsonValue | undefined,
  seen = new Set<JsonValue>(),
): boolean {
  const resolved = resolveStrict(defs, schema);
  if (resolved === undefined || seen.has(resolved)) return false;
  seen.add(resolved);
  if (resolved.type === "null") return true;
  return Array.isArray(resolved.anyOf) && resolved.anyOf.some((branch) => acceptsNull(defs, branch, seen));
}

/**
 * Makes each optional property required and nullable, `null` meaning "absent" (noted in `build.absent` for
 * `fromStrictPlan`). A property whose own schema takes `null` is left as it is and not noted: there `null`
 * is a value the tool takes, so it is kept. Runs once every schema is built (a `$ref` may name one built later).
 */
export function finishOptionals(build: StrictBuild): void {
  for (const { object, key } of build.pending) {
    const properties = object.properties;
    if (!isPlainObject(properties)) continue;
    const schema = getOwn(properties, key);
    if (schema === undefined || acceptsNull(build.defs, schema)) continue;
    setOwn(properties as Mutable, key, anyOfSchema([schema, { type: "null" }]));
    let absent = build.absent.get(object);
    if (absent === undefined) {
      absent = new Set();
      build.absent.set(object, absent);
    }
    absent.add(key);
  }
  build.pending.length = 0;
}
