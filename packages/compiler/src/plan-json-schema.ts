import type { JsonObject, JsonValue } from "@obelisk/core";
import { MAX_TIMER_MS, OUTPUT_METHODS } from "@obelisk/core";
import type { RegisteredTool } from "./registered-tool.js";
import { isPlainObject } from "./to-json-schema.js";
import type { ToolRegistry } from "./tool-registry.js";

/** A reference or template string (contains a dagger) or the legacy `$tool_output.<id>` alias. */
export const REFERENCE_STRING_SCHEMA: JsonObject = {
  type: "string",
  pattern: "†|^\\$tool_output\\.",
  description: "a reference like †state.user.name, an expression (†a || †b), or a template with {†…}",
};
const MAX_DEPTH = 24;
type Mutable = Record<string, JsonValue>;

/** Rewrites local `$ref`s to the tool's `$defs` moved into the plan schema under a prefix. */
function rewriteRefs(value: JsonValue, prefix: string): JsonValue {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, prefix));
  if (!isPlainObject(value)) return value;
  const out: Mutable = {};
  for (const [key, item] of Object.entries(value as JsonObject)) {
    if (key === "$schema" || key === "$id") continue;
    if (key === "$ref" && typeof item === "string" && item.startsWith("#/$defs/"))
      out[key] = `#/$defs/${prefix}${item.slice(8)}`;
    else out[key] = rewriteRefs(item, prefix);
  }
  return out;
}

/** A schema that also accepts a reference string, recursively for nested object properties and items. */
function allowReferences(schema: JsonValue, depth: number): JsonValue {
  if (!isPlainObject(schema) || depth > MAX_DEPTH) return schema;
  const copy: Mutable = { ...(schema as JsonObject) };
  const properties = copy.properties;
  if (isPlainObject(properties)) {
    const mapped: Mutable = {};
    for (const [key, item] of Object.entries(properties as JsonObject))
      mapped[key] = allowReferences(item, depth + 1);
    copy.properties = mapped;
  }
  if (isPlainObject(copy.items)) copy.items = allowReferences(copy.items as JsonValue, depth + 1);
  if (Array.isArray(copy.prefixItems))
    copy.prefixItems = copy.prefixItems.map((item) => allowReferences(item, depth + 1));
  if (isPlainObject(copy.additionalProperties))
    copy.additionalProperties = allowReferences(copy.additionalProperties as JsonValue, depth + 1);
  return depth === 0 ? copy : { anyOf: [copy, REFERENCE_STRING_SCHEMA] };
}

function metaProperties(tool: RegisteredTool): Mutable {
  const outputPath = tool.outputPathSchema === undefined ? { pattern: "^†" } : tool.outputPathSchema;
  const meta: Mutable = {
    _tool: { const: tool.name },
    _id: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_-]*$" },
    _outputPath: { type: "string", ...outputPath },
    _outputMethod: { enum: Object.keys(OUTPUT_METHODS) },
    _description: { type: "string" },
    _rerun: { type: "boolean" },
    _timeoutMs: { type: "number", exclusiveMinimum: 0, maximum: MAX_TIMER_MS },
    _retry: { type: "object" },
  };
  if (tool.latent)
    meta._output = tool.outputSchema === undefined ? {} : rewriteRefs(tool.outputSchema, `${tool.name}__`);
  return meta;
}

/** The schema of one call of `tool`: `_tool` const, parameters (each its schema or a reference), meta-properties. */
export function callSchema(tool: RegisteredTool, defs: Mutable): JsonObject {
  const input = rewriteRefs(tool.inputSchema, `${tool.name}__`) as Mutable;
  if (isPlainObject(input.$defs)) {
    for (const [key, def] of Object.entries(input.$defs as JsonObject)) defs[`${tool.name}__${key}`] = def;
  }
  const params = allowReferences({ ...input, $defs: null }, 0) as Mutable;
  const properties = {
    ...(isPlainObject(params.properties) ? (params.properties as JsonObject) : {}),
    ...metaProperties(tool),
  };
  const required = ["_tool", ...(Array.isArray(input.required) ? input.required : [])];
  const closed = input.additionalProperties === false;
  const schema: Mutable = { type: "object", properties, required, additionalProperties: false };
  if (!closed)
    schema.patternProperties = {
      "^[^_]": isPlainObject(input.additionalProperties)
        ? allowReferences(input.additionalProperties as JsonValue, 1)
        : {},
    };
  if (tool.description !== undefined) schema.description = tool.description;
  return schema;
}

/**
 * The plan JSON Schema (2020-12) for a registry (SPEC §6): an LLM's structured output can be constrained
 * by it. Each call is one of the tools (`_tool` const); each parameter accepts its own schema or a
 * reference string; `_outputPath` follows the tool's rule.
 */
export function planJsonSchema(registry: ToolRegistry): JsonObject {
  const defs: Mutable = {};
  const calls = registry.names.flatMap((name) => {
    const tool = registry.get(name);
    return tool === undefined ? [] : [callSchema(tool, defs)];
  });
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "Obelisk plan",
    type: "object",
    properties: {
      type: { const: "plan" },
      id: { type: "string" },
      description: { type: "string" },
      inputSchema: { type: "object" },
      plan: { type: "array", items: calls.length === 0 ? false : { anyOf: calls } },
    },
    required: ["type", "plan"],
    additionalProperties: false,
    ...(Object.keys(defs).length === 0 ? {} : { $defs: defs }),
  };
}
