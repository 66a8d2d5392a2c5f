import type { JsonObject } from "@obelisk/core";
import { ObeliskError, readHostValue, thrownMessage } from "@obelisk/core";
import { type RefLoop, schemaRefs } from "./schema-ref-loops.js";
import type { SchemaCheck, SchemaCompiler } from "./schema-validator.js";

const VALID: SchemaCheck = () => [];

/**
 * The check of one of a tool's schemas (`VALID` without one): USAGE now for an invalid schema, a `$ref`
 * loop or a `$ref` ajv cannot resolve.
 */
export function schemaCheck(
  compiler: SchemaCompiler,
  schema: JsonObject | undefined,
  what: string,
): SchemaCheck {
  if (schema === undefined) return VALID;
  // a getter or Proxy trap in the schema that throws is USAGE naming the schema
  readHostValue(what, () => compiler.assertValid(schema, what));
  const check = compiler.lazyCheck(schema, what);
  const refs = schemaRefs(schema);
  if (refs.loop !== undefined) throw refLoopUsage(refs.loop, what);
  // compiled now, not on the first call: a $ref ajv cannot resolve (another document, a missing
  // definition) is USAGE here (decision 0006), not PARAM_INVALID in every plan that calls the tool
  if (refs.any) compileNow(check, what);
  return check;
}

/** Runs `check` once, so its schema is compiled: USAGE (with a hint) for a `$ref` ajv cannot resolve. */
function compileNow(check: SchemaCheck, what: string): void {
  try {
    check({});
  } catch (error) {
    const hint =
      'a tool\'s schema must hold what it refers to: put it under "$defs" and refer to it as "#/$defs/<name>" (the engine fetches no other document)';
    if (ObeliskError.is(error))
      throw new ObeliskError(error.code, error.message, { hint, cause: error.cause });
    throw new ObeliskError("USAGE", `${what} cannot be used: ${thrownMessage(error)}`, {
      hint,
      cause: error,
    });
  }
}

/** USAGE for a `$ref` that leads back to itself at the same place in the value (`schemaRefs`). */
function refLoopUsage(loop: RefLoop, what: string): ObeliskError {
  const at = loop.pointer === "" ? "at its root" : `at ${loop.pointer}`;
  return new ObeliskError(
    "USAGE",
    `${what}: the $ref ${JSON.stringify(loop.ref)} ${at} leads back to itself without going into the value, so checking any value would never end`,
    {
      hint: 'a schema may refer to itself only below properties, items, …: e.g. { "type": "object", "properties": { "child": { "$ref": "#" } } }',
    },
  );
}
