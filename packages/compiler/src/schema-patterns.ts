import { appendPointer, ecmaPatternError, type JsonValue } from "@obelisk/core";
import { runsInLinearTime } from "./linear-reg-exp.js";

/** Keywords whose values are data, not schemas: a `pattern` key inside them is not a regular expression. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples", "example"]);
/** Schemas nested deeper than this are not searched (the meta-schema check bounds real schemas). */
const MAX_DEPTH = 200;

function compiles(source: string): boolean {
  return ecmaPatternError(source) === undefined;
}

/** A pattern found in a schema, and its JSON Pointer there (the `pattern` keyword, or the `patternProperties` key). */
interface FoundPattern {
  readonly source: string;
  readonly pointer: string;
}

/** The first `pattern` (or `patternProperties` key) of a JSON Schema for which `matches` holds, or undefined. */
export function firstPattern(
  schema: JsonValue,
  matches: (source: string) => boolean,
  pointer = "",
  depth = 0,
): FoundPattern | undefined {
  if (typeof schema !== "object" || schema === null || depth > MAX_DEPTH) return undefined;
  const entries: [string, JsonValue][] = Array.isArray(schema)
    ? schema.map((item, index) => [String(index), item])
    : Object.entries(schema);
  for (const [key, value] of entries) {
    if (!Array.isArray(schema)) {
      if (DATA_KEYWORDS.has(key)) continue;
      if (key === "pattern" && typeof value === "string" && matches(value))
        return { source: value, pointer: appendPointer(pointer, key) };
      if (
        key === "patternProperties" &&
        typeof value === "object" &&
        value !== null &&
        !Array.isArray(value)
      ) {
        for (const source of Object.keys(value))
          if (matches(source)) return { source, pointer: appendPointer(appendPointer(pointer, key), source) };
      }
    }
    const found = firstPattern(value, matches, appendPointer(pointer, key), depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The first `pattern` (or `patternProperties` key) of a JSON Schema that is not a valid regular expression
 * (ajv compiles them with the `u` flag): where it is and why JavaScript refuses it (`ecmaPatternError`). Checked
 * at registration: ajv compiles a tool's schema on first use, so a bad pattern would otherwise surface in
 * the middle of a plan's compilation — and RE2 takes some (`\-`, a lone `]`) with a meaning of its own.
 */
export function invalidPattern(
  schema: JsonValue,
): { readonly pointer: string; readonly message: string } | undefined {
  const found = firstPattern(schema, (source) => !compiles(source));
  if (found === undefined) return undefined;
  return { pointer: found.pointer, message: ecmaPatternError(found.source) ?? "" };
}

/** The first valid pattern of a JSON Schema that the linear-time engine cannot run (it backtracks), or undefined. */
export function backtrackingPattern(schema: JsonValue): string | undefined {
  return firstPattern(schema, (source) => compiles(source) && !runsInLinearTime(source))?.source;
}
