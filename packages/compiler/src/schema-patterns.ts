import type { JsonValue } from "@obelisk/core";
import { runsInLinearTime } from "./linear-reg-exp.js";

/** Keywords whose values are data, not schemas: a `pattern` key inside them is not a regular expression. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples", "example"]);
/** Schemas nested deeper than this are not searched (the meta-schema check bounds real schemas). */
const MAX_DEPTH = 200;

function compiles(source: string): boolean {
  try {
    new RegExp(source, "u");
    return true;
  } catch {
    return false;
  }
}

/** The first `pattern` (or `patternProperties` key) of a JSON Schema for which `matches` holds, or undefined. */
function firstPattern(
  schema: JsonValue,
  matches: (source: string) => boolean,
  depth = 0,
): string | undefined {
  if (typeof schema !== "object" || schema === null || depth > MAX_DEPTH) return undefined;
  if (Array.isArray(schema)) {
    for (const item of schema) {
      const found = firstPattern(item, matches, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (DATA_KEYWORDS.has(key)) continue;
    if (key === "pattern" && typeof value === "string" && matches(value)) return value;
    if (key === "patternProperties" && typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const source of Object.keys(value)) if (matches(source)) return source;
    }
    const found = firstPattern(value as JsonValue, matches, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The first `pattern` (or `patternProperties` key) of a JSON Schema that is not a valid regular expression
 * (ajv compiles them with the `u` flag), or undefined. Checked at registration: ajv compiles a tool's schema
 * on first use, so a bad pattern would otherwise surface in the middle of a plan's compilation.
 */
export function invalidPattern(schema: JsonValue): string | undefined {
  return firstPattern(schema, (source) => !compiles(source));
}

/** The first valid pattern of a JSON Schema that the linear-time engine cannot run (it backtracks), or undefined. */
export function backtrackingPattern(schema: JsonValue): string | undefined {
  return firstPattern(schema, (source) => compiles(source) && !runsInLinearTime(source));
}
