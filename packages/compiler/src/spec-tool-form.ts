import { isPlainObject } from "./to-json-schema.js";

/** True for the spec's tool form: a JSON Schema object whose `properties._tool.const` names the tool. */
export function isSpecToolForm(value: Record<string, unknown>): boolean {
  const properties = value.properties;
  return (
    typeof value.name !== "string" &&
    isPlainObject(properties) &&
    isPlainObject(properties._tool) &&
    typeof properties._tool.const === "string"
  );
}

/** Converts the spec's tool form into the `defineTool` shape (meta-properties moved out of the input schema). */
export function fromSpecForm(value: Record<string, unknown>, run: unknown): Record<string, unknown> {
  const properties = value.properties as Record<string, unknown>;
  const params: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(properties)) if (!key.startsWith("_")) params[key] = schema;
  const required = Array.isArray(value.required)
    ? value.required.filter((k) => typeof k === "string" && !k.startsWith("_"))
    : [];
  const input: Record<string, unknown> = { ...value, properties: params };
  delete input.description;
  delete input.title;
  if (required.length > 0) input.required = required;
  else delete input.required;
  const description = typeof value.description === "string" ? value.description : value.title;
  return {
    name: (properties._tool as Record<string, unknown>).const,
    description,
    input,
    output: properties._output,
    outputPath: properties._outputPath,
    outcomes: value.outcomes ?? value["x-outcomes"],
    run,
  };
}
