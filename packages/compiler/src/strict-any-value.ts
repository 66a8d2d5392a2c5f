import type { JsonObject } from "@obelisk/core";
import { defRef, type Mutable, sharedDef } from "./strict-build.js";
import { noteDeviation, type StrictContext } from "./strict-source.js";

/** Any JSON value, as near as strict mode can say it: an object can only be `{}` (it must name its keys). */
export function anyValueDef(key: string): JsonObject {
  return {
    anyOf: [
      { type: "string" },
      { type: "number" },
      { type: "boolean" },
      { type: "null" },
      { type: "array", items: defRef(key) },
      { type: "object", properties: {}, required: [], additionalProperties: false },
    ],
  };
}

/** The any-value schema, noted as a deviation at `pointer` (an object there can only be `{}`). */
export function anyValue(context: StrictContext, pointer: string, why: string): Mutable {
  noteDeviation(context, {
    pointer,
    reason: "any-value",
    message: `${why}: strict mode needs an object's keys named, so an object here can only be {} (or a reference)`,
  });
  return { ...defRef(sharedDef(context.build, "json", anyValueDef)) };
}
