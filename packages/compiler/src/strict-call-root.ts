import type { JsonObject, JsonValue } from "@obelisk/core";
import { appendPointer } from "@obelisk/core";
import { type Mutable, setOwn } from "./strict-build.js";
import { flattenSchema } from "./strict-merge.js";
import { droppedWithoutLoss } from "./strict-property-names.js";
import { DROPPED_KEYWORDS } from "./strict-schema-rules.js";
import { noteDeviation, type StrictContext } from "./strict-source.js";
import { strictObjectSchema } from "./strict-value-schema.js";
import { isPlainObject } from "./to-json-schema.js";

/** The root's named properties joined with those of its `anyOf`/`oneOf` branches (the first of a name kept). */
function joinBranchProperties(context: StrictContext, schema: JsonObject): JsonObject {
  const keyword = Array.isArray(schema.anyOf) ? "anyOf" : Array.isArray(schema.oneOf) ? "oneOf" : undefined;
  if (keyword === undefined) return schema;
  const joined: Mutable = { ...(isPlainObject(schema.properties) ? (schema.properties as JsonObject) : {}) };
  (schema[keyword] as JsonValue[]).forEach((branch, i) => {
    if (!isPlainObject(branch)) return;
    const at = appendPointer(appendPointer("", keyword), i);
    const flat = flattenSchema(context, branch as JsonObject, at, true);
    const properties =
      isPlainObject(flat) && isPlainObject(flat.properties) ? (flat.properties as JsonObject) : {};
    for (const [name, property] of Object.entries(properties))
      if (!Object.hasOwn(joined, name)) setOwn(joined, name, property);
  });
  return { ...schema, properties: joined };
}

/**
 * The strict schema of a tool's input root as a call's parameters: an object schema (keys `_…` left out). A
 * root `anyOf`/`oneOf` cannot stay (a call is one object): its branches' parameters join the root's, each
 * optional unless the root requires it.
 */
export function strictCallRoot(context: StrictContext, root: JsonObject): Mutable {
  const flat = flattenSchema(context, root, "", true);
  const schema = isPlainObject(flat) ? joinBranchProperties(context, flat as JsonObject) : {};
  for (const keyword of ["anyOf", "oneOf", ...DROPPED_KEYWORDS])
    if (keyword in schema && !droppedWithoutLoss(schema, keyword))
      noteDeviation(context, {
        pointer: "",
        reason: "keyword-dropped",
        keyword,
        message: `a call's parameters are one object in the plan schema: ${keyword} at the root is left out`,
      });
  return strictObjectSchema(context, schema, "", true);
}
