import type { JsonObject } from "@obelisk/core";
import type { Mutable } from "./strict-build.js";
import { isStrictPattern, STRICT_FORMATS } from "./strict-schema-rules.js";
import { noteDeviation, type StrictContext } from "./strict-source.js";

const TYPES = new Set(["string", "number", "integer", "boolean", "null", "object", "array"]);
const NUMBER_KEYWORDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] as const;

/** A string schema: its `pattern` and `format` kept where strict mode has them, noted where dropped. */
export function stringSchema(context: StrictContext, schema: JsonObject, pointer: string): Mutable {
  const out: Mutable = { type: "string" };
  const { pattern, format } = schema;
  if (typeof pattern === "string" && isStrictPattern(pattern)) out.pattern = pattern;
  else if (pattern !== undefined)
    noteDeviation(context, {
      pointer,
      reason: "keyword-dropped",
      keyword: "pattern",
      message: "the pattern uses regular-expression features strict mode lacks (lookaround, backreferences…)",
    });
  if (typeof format === "string" && STRICT_FORMATS.has(format)) out.format = format;
  else if (format !== undefined)
    noteDeviation(context, {
      pointer,
      reason: "keyword-dropped",
      keyword: "format",
      message: `strict mode knows no format ${JSON.stringify(format)}`,
    });
  return out;
}

/** A number or integer schema with its bounds and `multipleOf` (all of which strict mode has). */
export function numberSchema(type: string, schema: JsonObject): Mutable {
  const out: Mutable = { type };
  for (const key of NUMBER_KEYWORDS) {
    const value = schema[key];
    if (typeof value === "number" && Number.isFinite(value)) out[key] = value;
  }
  const multiple = schema.multipleOf;
  if (typeof multiple === "number" && Number.isFinite(multiple) && multiple > 0) out.multipleOf = multiple;
  return out;
}

/** The types a schema allows: its `type`, or the one its keywords imply (`properties`: object). */
export function typesOf(schema: JsonObject): string[] | undefined {
  const { type } = schema;
  if (typeof type === "string") return TYPES.has(type) ? [type] : [];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === "string" && TYPES.has(t));
  if (["properties", "required", "additionalProperties", "patternProperties"].some((k) => k in schema))
    return ["object"];
  if ("items" in schema || "prefixItems" in schema) return ["array"];
  return undefined;
}
