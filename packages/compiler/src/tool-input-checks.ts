import type { JsonObject } from "@obelisk/core";
import { ObeliskError } from "@obelisk/core";
import { schemaTypes } from "./schema-types.js";
import { isPlainObject } from "./to-json-schema.js";

/**
 * Refuses an input schema that admits no object: a call's parameters are an object of named values (SPEC
 * §4), so every call of such a tool failed PARAM_INVALID and the plan JSON Schema could not be satisfied.
 */
export function checkInputTakesObject(inputSchema: JsonObject, what: string): void {
  const types = schemaTypes(inputSchema, inputSchema);
  if (types === undefined || types.has("object")) return;
  throw new ObeliskError(
    "USAGE",
    `${what}: its input takes ${[...types].join(" or ")}, but a call's parameters are an object of named values`,
    { hint: 'name the value: z.object({ text: z.string() }), or { "type": "object", "properties": { … } }' },
  );
}

/**
 * Refuses an input schema that declares a parameter starting with `_`: a call's `_` keys are its
 * meta-properties (SPEC §4), so a plan could never give it — the call got `META_UNKNOWN` for the key and,
 * when required, `PARAM_MISSING` for it too, and the plan JSON Schema required a key it refuses.
 */
export function checkParameterNames(inputSchema: JsonObject, what: string): void {
  const properties = isPlainObject(inputSchema.properties) ? Object.keys(inputSchema.properties) : [];
  const required = Array.isArray(inputSchema.required) ? inputSchema.required : [];
  const name = [...properties, ...required].find(
    (key): key is string => typeof key === "string" && key.startsWith("_"),
  );
  if (name === undefined) return;
  const plain = name.replace(/^_+/, "");
  throw new ObeliskError(
    "USAGE",
    `${what}: its input declares the parameter "${name}", which no plan can give (keys starting with _ are a call's meta-properties)`,
    {
      hint: `rename the parameter${plain === "" || plain === name ? "" : ` (e.g. "${plain}")`}: parameters cannot start with _`,
    },
  );
}
