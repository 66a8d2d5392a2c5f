import type { JsonObject } from "@obelisk/core";

/**
 * A reference or template string — a dagger followed by a kind name (`†state.x`, `†a || †b`, `{†…}`; a bare
 * `†` is not one) — or the legacy `$tool_output.<id>` alias. The alternatives are grouped: a grammar
 * converter that anchors an unanchored pattern by adding `.*` at its ends (llama.cpp's) kept `.*` off the
 * first one, so a reference had to end after its kind's first letter (decision 0096).
 */
export const REFERENCE_STRING_SCHEMA: JsonObject = {
  type: "string",
  pattern: "(†[A-Za-z_$]|^\\$tool_output\\.)",
  description: "a reference like †state.user.name, an expression (†a || †b), or a template with {†…}",
};

/**
 * A string the compiler always refuses wherever a value goes (REF_SYNTAX): a dagger at the start that is
 * neither an escape (`††`) nor followed by a kind name — `"†"`, `"† x"`. Used as `not` beside a value's schema.
 */
export const BARE_DAGGER_SCHEMA: JsonObject = { type: "string", pattern: "^†(?:$|[^†A-Za-z_$])" };
