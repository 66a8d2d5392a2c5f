import type { JsonObject, JsonValue } from "@obelisk/core";
import { getOwn, type Mutable, setOwn } from "./strict-build.js";
import { isPlainObject } from "./to-json-schema.js";

/**
 * The tool's input schema with each approval parameter (`approvalParams`) a required string: what the tool
 * says of its value is not the plan's to write (the full plan schema offers only a reference under
 * `†state.approvals.`, which `approvalSchemas` puts in its place), so it is neither converted nor reported.
 */
export function approvalsAsStrings(input: JsonObject, names: readonly string[]): JsonObject {
  if (names.length === 0) return input;
  const properties: Mutable = {
    ...(isPlainObject(input.properties) ? (input.properties as JsonObject) : {}),
  };
  for (const name of names) setOwn(properties, name, { type: "string" });
  const required = Array.isArray(input.required) ? input.required : [];
  return { ...input, properties, required: [...new Set([...required, ...names])] };
}

/** The full plan schema's schema of each approval parameter of a call (`full`: its call schema), by name. */
export function approvalSchemas(full: JsonObject, names: readonly string[]): Map<string, JsonValue> {
  const properties = isPlainObject(full.properties) ? (full.properties as JsonObject) : {};
  const found = new Map<string, JsonValue>();
  for (const name of names) {
    const schema = getOwn(properties, name);
    if (schema !== undefined) found.set(name, schema);
  }
  return found;
}
