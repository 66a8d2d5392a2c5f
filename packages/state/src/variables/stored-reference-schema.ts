import type { JsonObject } from "@obelisk/core";

/**
 * The JSON Schema of a reference to a stored value — what {@link getValue} and a summary's `refs` take:
 * `†state`, `†state.<path>` or `†calls.<id>…` (never `†input`, an expression, a template or the
 * `$tool_output.` alias). It guides an LLM's structured output by the kind only; the path is still checked
 * by the reference parser, which refuses what the pattern lets through with its code (REF_SYNTAX, …).
 */
export const STORED_REFERENCE_SCHEMA: JsonObject = {
  type: "string",
  pattern: '^†(?:state(?:$|[.\\[])|calls(?:\\.[A-Za-z_$]|\\["))',
  description: "a reference to a stored value: †state.user, †state.items[0] or †calls.<callId>",
};
