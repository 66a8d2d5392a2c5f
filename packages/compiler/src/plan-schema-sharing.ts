import type { JsonObject, JsonValue } from "@obelisk/core";
import { allocateDefKey } from "./move-tool-schema.js";
import { BARE_DAGGER_SCHEMA, REFERENCE_STRING_SCHEMA } from "./reference-string-schema.js";
import { isPlainObject } from "./to-json-schema.js";

type Mutable = Record<string, JsonValue>;

/**
 * How the plan JSON Schema writes a piece every call or parameter repeats (decision 0096): `shared` puts it
 * in the plan schema's `$defs` once and writes a `$ref` to it wherever it goes; `inline` writes it there
 * itself (what `strictPlanJsonSchema` reads, which converts each call's meta-properties on its own).
 */
export interface SchemaSharing {
  readonly inline: boolean;
  /** `schema`, or a `$ref` to the one `$defs` entry holding it (named `name`, or `name_2`… on a clash). */
  share(name: string, schema: JsonObject): JsonObject;
}

/** Writes every piece where it goes. */
export const INLINE_SHARING: SchemaSharing = { inline: true, share: (_name, schema) => schema };

/** Puts each piece into `defs` once (the same JSON text: the same entry) and answers `$ref`s to it. */
export function sharedDefs(defs: Mutable): SchemaSharing {
  const keys = new Map<string, string>();
  return {
    inline: false,
    share(name, schema) {
      const text = JSON.stringify(schema);
      let key = keys.get(text);
      if (key === undefined) {
        key = allocateDefKey(defs, name);
        defs[key] = schema;
        keys.set(text, key);
      }
      return { $ref: `#/$defs/${key}` };
    },
  };
}

/** A reference string that is no bare dagger: the alternative every value position offers. */
const REFERENCE_ALTERNATIVE: JsonObject = { ...REFERENCE_STRING_SCHEMA, not: BARE_DAGGER_SCHEMA };

/** Whether no value `schema` accepts is a string (so none starts with a bare dagger): its `type`, `enum` or `const` say so. */
function takesNoString(schema: JsonValue): boolean {
  if (schema === false) return true;
  if (!isPlainObject(schema)) return false;
  const { type } = schema as JsonObject;
  if (typeof type === "string") return type !== "string";
  if (Array.isArray(type)) return !type.includes("string");
  if (Array.isArray(schema.enum)) return schema.enum.every((value) => typeof value !== "string");
  return "const" in schema && typeof schema.const !== "string";
}

/**
 * A value position's schema as the compiler takes it: its own schema or a reference string, never a string
 * starting with a bare dagger (`"†"`, `"† x"`: REF_SYNTAX). Shared, the reference alternative refuses the
 * bare dagger itself, and the value's own schema is held to it only when it may take a string; inline, the
 * whole position is (the form before decision 0096, which the tests compare with).
 */
export function orReference(sharing: SchemaSharing): (schema: JsonValue) => JsonObject {
  if (sharing.inline)
    return (schema) => ({ anyOf: [schema, REFERENCE_STRING_SCHEMA], not: BARE_DAGGER_SCHEMA });
  return (schema) => {
    const alternatives = { anyOf: [schema, sharing.share("reference", REFERENCE_ALTERNATIVE)] };
    return takesNoString(schema)
      ? alternatives
      : { ...alternatives, not: sharing.share("bareDagger", BARE_DAGGER_SCHEMA) };
  };
}
