import type { JsonObject } from "@obelisk/core";
import { defRef, type Mutable, type StrictBuild, sharedDef } from "./strict-build.js";
import { noteDeviation, type StrictContext } from "./strict-source.js";

/** The branches of any JSON value but `null`: an object can only be `{}` (strict mode must name its keys). */
function notNullBranches(key: string): JsonObject[] {
  return [
    { type: "string" },
    { type: "number" },
    { type: "boolean" },
    { type: "array", items: defRef(key) },
    { type: "object", properties: {}, required: [], additionalProperties: false },
  ];
}

/** Any JSON value, as near as strict mode can say it (`key`: this definition's own, for an array's items). */
export function anyValueDef(key: string): JsonObject {
  const [string, number, boolean, ...rest] = notNullBranches(key);
  return { anyOf: [string, number, boolean, { type: "null" }, ...rest] as JsonObject[] };
}

/**
 * The `$defs` key of any JSON value but `null` (an array's items may still be `null`), for an optional
 * property whose schema takes any value: `null` stands for absent there. `jsonKey`: the any-value definition.
 */
export function anyValueButNull(build: StrictBuild, jsonKey: string): string {
  return sharedDef(build, "json_not_null", () => ({ anyOf: notNullBranches(jsonKey) }));
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
