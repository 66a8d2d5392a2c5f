import type { JsonObject, JsonValue } from "@obelisk/core";

/** A run's input after unwrapping an Input message. */
export interface NormalizedInput {
  /** The input value (`{}` when none was given). */
  readonly input: JsonValue;
  /** The Input message's schema, if any. */
  readonly schema?: JsonObject;
  /** True when the input came as an Input message (pointers then start at `/input`). */
  readonly message: boolean;
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Accepts a plain input value or an Input message `{ "type": "input", "input": …, "schema"?: … }` (SPEC §5). */
export function normalizeInput(given: JsonValue | undefined): NormalizedInput {
  if (given === undefined) return { input: {}, message: false };
  if (isObject(given) && given.type === "input" && Object.hasOwn(given, "input")) {
    const schema = given.schema;
    return { input: given.input ?? {}, message: true, ...(isObject(schema) ? { schema } : {}) };
  }
  return { input: given, message: false };
}
