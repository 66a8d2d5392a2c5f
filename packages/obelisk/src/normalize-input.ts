import { type JsonObject, type JsonValue, ObeliskError } from "@obelisk/core";

/** A run's input after unwrapping an Input message. */
export interface NormalizedInput {
  /** The input value (`{}` when none was given). */
  readonly input: JsonObject;
  /** The Input message's schema, if any (`false` becomes `{ not: {} }`: no input satisfies it). */
  readonly schema?: JsonObject;
  /** True when the input came as an Input message (pointers then start at `/input`). */
  readonly message: boolean;
}

const NO_INPUT: NormalizedInput = { input: {}, message: false };
/** The schema `false` as an object: nothing satisfies it. */
const NOTHING: JsonObject = Object.freeze({ not: Object.freeze({}) });

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const describe = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;

const usage = (message: string): ObeliskError =>
  new ObeliskError("USAGE", message, {
    hint: 'give a plain object, or an Input message { "type": "input", "input": { … }, "schema"?: { … } }',
  });

/**
 * Accepts a plain object or an Input message `{ "type": "input", "input": { … }, "schema"?: … }` (SPEC §5);
 * anything else (a number, string, array, boolean, null) throws USAGE. The message's `input` must be a plain
 * object too (missing or null: `{}`), and its `schema` a JSON Schema: an object, `true` (no check) or `false`
 * (every input refused); any other schema throws USAGE.
 */
export function normalizeInput(given: JsonValue | undefined): NormalizedInput {
  if (given === undefined) return NO_INPUT;
  if (!isObject(given)) throw usage(`the input must be a plain object, not ${describe(given)}`);
  if (given.type !== "input" || !Object.hasOwn(given, "input")) return { input: given, message: false };
  const input = given.input ?? {};
  if (!isObject(input))
    throw usage(`the Input message's input must be a plain object, not ${describe(input)}`);
  const schema = given.schema;
  if (schema === undefined || schema === true) return { input, message: true };
  if (schema === false) return { input, message: true, schema: NOTHING };
  if (!isObject(schema))
    throw usage(
      `the Input message's schema must be a JSON Schema (an object, true or false), not ${describe(schema)}`,
    );
  return { input, message: true, schema };
}
