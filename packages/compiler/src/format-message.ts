import type { JsonObject } from "@obelisk/core";
import { isPlainObject } from "./to-json-schema.js";

/** What a value of each common `format` is, for a reader. */
const FORMAT_NAMES: Readonly<Record<string, string>> = {
  email: "an email address",
  "idn-email": "an email address",
  uuid: "a UUID",
  "date-time": "a date and time (RFC 3339, e.g. 2024-05-01T12:00:00Z)",
  date: "a date (YYYY-MM-DD)",
  time: "a time (RFC 3339, e.g. 12:00:00Z)",
  duration: "an ISO 8601 duration (e.g. P1DT2H)",
  uri: "a URI",
  url: "a URL",
  "uri-reference": "a URI reference",
  hostname: "a host name",
  ipv4: "an IPv4 address",
  ipv6: "an IPv6 address",
  regex: "a regular expression",
  uppercase: "in upper case (no lower-case letters)",
  lowercase: "in lower case (no upper-case letters)",
};

/**
 * zod's names for string checks that it also writes as a `pattern` (`.startsWith("y")`: `format:
 * "starts_with"`, `pattern: "^y.*"`): the pattern's own message says more (it shows the text).
 */
export const ZOD_PATTERN_FORMATS: readonly string[] = [
  "starts_with",
  "ends_with",
  "includes",
  "uppercase",
  "lowercase",
];
const PATTERN_SAYS_MORE: ReadonlySet<string> = new Set(["starts_with", "ends_with", "includes"]);

/**
 * `must be an email address (format "email")` for a `pattern` or `format` issue whose schema has a
 * `format` (zod's `.email()` gives both, and a regex in the message says little), or undefined. The
 * schema is found at the issue's `schemaPath` (a root-relative pointer, `#/properties/to/pattern`).
 */
export function formatMessage(schema: JsonObject, schemaPath: string): string | undefined {
  const node = schemaNodeAbove(schema, schemaPath);
  const format = node?.format;
  if (typeof format !== "string" || PATTERN_SAYS_MORE.has(format)) return undefined;
  const name = Object.hasOwn(FORMAT_NAMES, format) ? FORMAT_NAMES[format] : undefined;
  return name === undefined
    ? `must be in format ${JSON.stringify(format)}`
    : `must be ${name} (format ${JSON.stringify(format)})`;
}

/** The schema object holding the keyword at `schemaPath`, or undefined. */
function schemaNodeAbove(schema: JsonObject, schemaPath: string): Record<string, unknown> | undefined {
  if (!schemaPath.startsWith("#/")) return undefined;
  const segments = schemaPath.slice(2).split("/");
  let node: unknown = schema;
  for (let index = 0; index < segments.length - 1; index++) {
    const key = (segments[index] as string).replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isPlainObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return isPlainObject(node) ? node : undefined;
}
