import type { JsonObject } from "@obelisk/core";
import { definitionOf } from "./jsonless-kinds.js";
import { isZodSchema } from "./to-json-schema.js";

/**
 * True when a tool's input takes no parameter besides those it lists, so an unlisted key is refused or
 * never reaches the tool:
 * - a JSON Schema whose top level has `additionalProperties: false` or `unevaluatedProperties: false`
 *   (and no `patternProperties`). One that only lists `properties` takes extra keys (JSON Schema's
 *   default), and a plain-object tool is given them as written;
 * - a zod object that strips unknown keys or refuses them (`z.object`, `z.strictObject`: no catchall, or
 *   `z.never()`), not `z.looseObject` / `.passthrough()` / `.catchall(…)`. zod converts a stripping object
 *   without `additionalProperties` (`io: "input"`), so its JSON Schema alone says "open".
 */
export function isClosedInput(input: unknown, schema: JsonObject): boolean {
  if (schema.patternProperties !== undefined) return false;
  if (schema.additionalProperties === false || schema.unevaluatedProperties === false) return true;
  if (!isZodSchema(input)) return false;
  const definition = definitionOf(input);
  return (
    definition.type === "object" &&
    (definition.catchall === undefined || definitionOf(definition.catchall).type === "never")
  );
}
