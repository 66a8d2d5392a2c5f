import { toJsonSchema } from "@obelisk/compiler";
import type { JsonObject } from "@obelisk/core";
import type { z } from "zod";
import type { EngineOptions } from "./engine-types.js";

/** What every `createEngine` overload takes: `EngineOptions` whose `stateSchema` may be a zod schema. */
export type GivenEngineOptions = Omit<EngineOptions, "stateSchema"> & {
  readonly stateSchema?: JsonObject | z.ZodType | undefined;
};

/**
 * The options with a zod `stateSchema` converted to JSON Schema, once, exactly as a tool's `input` is: every
 * thread, `validate`'s context, `set` and the store (which persists it on the thread) then get the JSON one.
 * A JSON Schema `stateSchema` is kept as given. USAGE for a zod type no JSON value satisfies (naming the
 * field), a zod 3 schema or a non-schema value.
 */
export function withJsonStateSchema(given: GivenEngineOptions): EngineOptions {
  const { stateSchema } = given;
  if (stateSchema === undefined) return given as EngineOptions;
  const converted = toJsonSchema(stateSchema, {
    what: "createEngine: stateSchema",
    side: "output",
    // writes are checked against the JSON Schema alone: a type only code checks would pass anything
    jsonSchemaOnly: true,
  });
  return converted === stateSchema ? (given as EngineOptions) : { ...given, stateSchema: converted };
}
