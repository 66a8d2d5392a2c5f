import { STRICT_FORMATS } from "./strict-schema-rules.js";

/**
 * A checker of OpenAI's strict subset of JSON Schema, walking a schema from the rules of decision 0028
 * rather than from how `strictPlanJsonSchema` builds one (so it also checks that builder, and a host's own
 * tool schemas). The keywords strict mode takes, besides the string formats of `STRICT_FORMATS`.
 */
const KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "enum",
  "$ref",
  "$defs",
  "title",
  "description",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
]);
const TYPES = new Set(["string", "number", "integer", "boolean", "null", "object", "array"]);
const LOOKAROUND = /\(\?<?[=!]/;

type Node = Record<string, unknown>;

function checkNode(node: unknown, at: string, defs: Node, problems: string[]): void {
  if (typeof node !== "object" || node === null || Array.isArray(node)) {
    problems.push(`${at}: not a schema object`);
    return;
  }
  const schema = node as Node;
  for (const key of Object.keys(schema)) if (!KEYWORDS.has(key)) problems.push(`${at}: keyword ${key}`);
  if (at !== "" && "$defs" in schema) problems.push(`${at}: $defs below the root`);
  const kinds = ["type", "anyOf", "$ref"].filter((k) => k in schema);
  if (kinds.length !== 1)
    problems.push(`${at}: needs exactly one of type, anyOf, $ref (has ${kinds.join(", ")})`);
  if ("$ref" in schema) {
    const ref = schema.$ref;
    const key = typeof ref === "string" && ref.startsWith("#/$defs/") ? ref.slice(8) : undefined;
    if (key === undefined || !Object.hasOwn(defs, key))
      problems.push(`${at}: $ref ${String(ref)} not in $defs`);
    if (Object.keys(schema).length !== 1) problems.push(`${at}: $ref beside other keywords`);
  }
  if ("anyOf" in schema) {
    const branches = schema.anyOf;
    if (!Array.isArray(branches) || branches.length < 2) problems.push(`${at}: anyOf of fewer than 2`);
    else for (const [i, b] of branches.entries()) checkNode(b, `${at}/anyOf/${i}`, defs, problems);
  }
  if ("type" in schema && !(typeof schema.type === "string" && TYPES.has(schema.type)))
    problems.push(`${at}: type ${JSON.stringify(schema.type)}`);
  if (schema.type === "object") {
    const properties = schema.properties as Node | undefined;
    if (typeof properties !== "object" || properties === null)
      problems.push(`${at}: object without properties`);
    const keys = Object.keys(properties ?? {});
    const required = schema.required;
    if (
      !Array.isArray(required) ||
      required.length !== keys.length ||
      !keys.every((k) => required.includes(k))
    )
      problems.push(`${at}: required is not every property`);
    if (schema.additionalProperties !== false) problems.push(`${at}: additionalProperties is not false`);
    for (const key of keys) checkNode(properties?.[key], `${at}/properties/${key}`, defs, problems);
  } else if ("properties" in schema || "required" in schema || "additionalProperties" in schema)
    problems.push(`${at}: object keywords on a non-object`);
  if (schema.type === "array") {
    if (!("items" in schema)) problems.push(`${at}: array without items`);
    else checkNode(schema.items, `${at}/items`, defs, problems);
  } else if ("items" in schema) problems.push(`${at}: items on a non-array`);
  if ("enum" in schema) {
    const values = schema.enum;
    if (!Array.isArray(values) || values.length === 0) problems.push(`${at}: empty enum`);
    else if (
      !values.every((v) => typeof v === schema.type || (schema.type === "integer" && Number.isInteger(v)))
    )
      problems.push(`${at}: enum values not of type ${String(schema.type)}`);
  }
  if ("pattern" in schema && (typeof schema.pattern !== "string" || LOOKAROUND.test(schema.pattern)))
    problems.push(`${at}: pattern ${String(schema.pattern)}`);
  if ("format" in schema && !STRICT_FORMATS.has(schema.format as string))
    problems.push(`${at}: format ${String(schema.format)}`);
}

/**
 * What makes a JSON Schema unfit for OpenAI's strict structured outputs (decision 0028), each problem with
 * its JSON Pointer: an object root, not `anyOf`; every schema exactly one of `type` (one name), `anyOf`
 * (2+ branches) or a lone `$ref` into the root's `$defs`; every object with all its properties required and
 * `additionalProperties: false`; arrays with `items`; only the supported keywords; no lookaround in a pattern.
 */
export function strictSubsetProblems(root: unknown): string[] {
  const problems: string[] = [];
  const schema = (typeof root === "object" && root !== null ? root : {}) as Node;
  if (schema.type !== "object") problems.push("root: not an object schema");
  const defs = (schema.$defs ?? {}) as Node;
  checkNode(schema, "", defs, problems);
  for (const [key, def] of Object.entries(defs)) checkNode(def, `/$defs/${key}`, defs, problems);
  return problems;
}
