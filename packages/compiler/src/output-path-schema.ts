import type { JsonObject, JsonValue } from "@obelisk/core";
import { BUILT_IN_KINDS } from "@obelisk/core";
import type { RegisteredTool } from "./registered-tool.js";

/**
 * A pattern matching every spelling of `name` inside a quoted segment (a JSON string, whose escapes the
 * reference grammar decodes): each character as itself or as `\uXXXX`, hex digits in either case. Only
 * for names of letters, digits and `_` (no character of them has a shorter escape).
 */
function jsonStringSpellings(name: string): string {
  return [...name]
    .map((char) => {
      const hex = [...char.charCodeAt(0).toString(16).padStart(4, "0")]
        .map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit))
        .join("");
      return `(?:${char}|\\\\u${hex})`;
    })
    .join("");
}

/**
 * Matches an output path with a target in a read-only built-in kind (`†input`, `†calls`: SPEC §3) or at or
 * under `†state.approvals` (written `.approvals` or `["approvals"]`, escapes included: `["appro\u0076als"]`;
 * decision 0011), at the start or after an operator (`||`, `&&`, `<|>`, `*>`) outside the JSON strings of
 * quoted segments. Hosts may add writable kinds, but never redefine a built-in one, so this holds for every
 * kind table.
 */
const READ_ONLY_TARGET = (() => {
  const kinds = BUILT_IN_KINDS.filter((info) => !info.writable).map((info) => info.kind);
  const quoted = '"(?:[^"\\\\]|\\\\.)*"';
  const end = "(?![A-Za-z0-9_$-])";
  // An approval (SPEC §7) is given by a person, never written by a plan: †state.approvals is read-only too.
  const approvals = `state(?:\\.approvals${end}|\\["${jsonStringSpellings("approvals")}"\\])`;
  return `^(?:[^"]|${quoted})*?(?:^|\\|\\||&&|<\\|>|\\*>)\\s*†(?:(?:${kinds.join("|")})${end}|${approvals})`;
})();

/**
 * A text the schema cannot hold to a tool's rule: the compiler checks the rule against each target's
 * canonical text, and a bracketed segment (`†state.t["de-CH"]` is `†state.t.de-CH`) or several `||` / `&&`
 * targets are not that text. The compiler still judges them.
 */
const NOT_ONE_CANONICAL_TARGET: JsonObject = { pattern: "^†.*(?:\\[|\\|\\||&&)" };

/** `_outputPath` of a tool without a rule: a string starting with a dagger, no target in a read-only kind. */
export const ANY_OUTPUT_PATH: JsonObject = {
  type: "string",
  pattern: "^†",
  not: { pattern: READ_ONLY_TARGET },
};

/**
 * What a tool's outputPath rule adds to `ANY_OUTPUT_PATH` in the plan JSON Schema (none without a rule): the
 * rule, where the text is one canonical target.
 */
export function outputPathRule(tool: RegisteredTool): JsonObject | undefined {
  const own = tool.outputPathSchema;
  return own === undefined ? undefined : { anyOf: [own, NOT_ONE_CANONICAL_TARGET] };
}

/**
 * The schema of a call's `_outputPath` in the plan JSON Schema: a string starting with a dagger, or the
 * tool's own rule where the text is one canonical target, and no target in a read-only kind.
 */
export function outputPathSchema(tool: RegisteredTool): JsonObject {
  const own = tool.outputPathSchema;
  const rule: JsonObject = own === undefined ? { pattern: "^†" } : { anyOf: [own, NOT_ONE_CANONICAL_TARGET] };
  const schema: Record<string, JsonValue> = { type: "string", ...rule };
  const readOnly: JsonObject = { pattern: READ_ONLY_TARGET };
  if (schema.not === undefined) return { ...schema, not: readOnly };
  return { allOf: [schema, { not: readOnly }] };
}
