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
 * The schema of a call's `_outputPath` in the plan JSON Schema: a string starting with a dagger, or the
 * tool's own rule, and no target in a read-only kind. (A `pattern` rule applies to the whole text, not to
 * each `||`/`&&` target as the compiler does: see the compiler README.)
 */
export function outputPathSchema(tool: RegisteredTool): JsonObject {
  const rule: JsonObject = tool.outputPathSchema ?? { pattern: "^†" };
  const schema: Record<string, JsonValue> = { type: "string", ...rule };
  const readOnly: JsonObject = { pattern: READ_ONLY_TARGET };
  if (schema.not === undefined) return { ...schema, not: readOnly };
  return { allOf: [schema, { not: readOnly }] };
}
