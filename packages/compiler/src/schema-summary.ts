import type { JsonObject, JsonValue } from "@obelisk/core";
import { isPlainObject } from "./to-json-schema.js";

/** A summary longer than this is cut (with `…`): it goes into a description an LLM reads on every turn. */
const MAX_SUMMARY_LENGTH = 400;
/** Keys shown without quotes (others as JSON strings, as a reference would quote them). */
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Nesting shown before `{…}`. */
const MAX_SUMMARY_DEPTH = 4;

/**
 * A short TypeScript-like summary of a JSON Schema, for an LLM to know which paths a tool's output has:
 * `{name: string, age: number, address: {city: string}}`, `string[]`, `"a" | "b"`. Only what is certain
 * is shown: `any` where the schema says nothing simple (a `$ref`, `not`, conditionals). At most
 * MAX_SUMMARY_LENGTH characters.
 */
export function schemaSummary(schema: JsonValue | undefined): string {
  const text = summarize(schema, 0);
  return text.length <= MAX_SUMMARY_LENGTH ? text : `${text.slice(0, MAX_SUMMARY_LENGTH - 1)}…`;
}

function summarize(schema: JsonValue | undefined, depth: number): string {
  if (schema === true || schema === undefined) return "any";
  if (schema === false) return "never";
  if (!isPlainObject(schema)) return "any";
  const node = schema as JsonObject;
  if ("const" in node) return JSON.stringify(node.const) ?? "any";
  if (Array.isArray(node.enum)) return node.enum.map((value) => JSON.stringify(value)).join(" | ");
  const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  if (union !== undefined) return union.map((part) => summarize(part, depth)).join(" | ");
  const type = node.type;
  if (Array.isArray(type)) return type.map((name) => summarize({ ...node, type: name }, depth)).join(" | ");
  if (type === "object" || (type === undefined && isPlainObject(node.properties)))
    return objectSummary(node, depth);
  if (type === "array") {
    const item = summarize(node.items as JsonValue | undefined, depth + 1);
    return item.includes(" ") && !item.startsWith("{") ? `(${item})[]` : `${item}[]`;
  }
  if (type === "integer") return "integer";
  if (typeof type === "string") return type;
  return "any";
}

function objectSummary(node: JsonObject, depth: number): string {
  const properties = isPlainObject(node.properties) ? (node.properties as JsonObject) : undefined;
  if (properties === undefined || Object.keys(properties).length === 0) return "object";
  if (depth >= MAX_SUMMARY_DEPTH) return "{…}";
  const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
  const fields = Object.entries(properties).map(([key, value]) => {
    const name = PLAIN_KEY.test(key) ? key : JSON.stringify(key);
    return `${name}${required.has(key) ? "" : "?"}: ${summarize(value, depth + 1)}`;
  });
  return `{${fields.join(", ")}}`;
}
