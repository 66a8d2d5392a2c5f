import type { JsonObject } from "@obelisk/core";

/** A reference or template string (contains a dagger) or the legacy `$tool_output.<id>` alias. */
export const REFERENCE_STRING_SCHEMA: JsonObject = {
  type: "string",
  pattern: "†|^\\$tool_output\\.",
  description: "a reference like †state.user.name, an expression (†a || †b), or a template with {†…}",
};
