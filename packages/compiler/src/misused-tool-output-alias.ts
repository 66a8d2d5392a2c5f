import { TOOL_OUTPUT_PREFIX } from "@obelisk/core";

/** A call id right after the prefix (SPEC §2 `name`). */
const CALL_ID = /^[A-Za-z_$][A-Za-z0-9_$-]*/;

/**
 * The hint for a string that uses the `$tool_output.<callId>` alias where it is not one (SPEC §2 rule 7: a
 * whole-value alias of `†calls.<callId>` only): with a path after the id (`$tool_output.f.name`), or
 * inside longer text (`"see $tool_output.f"`). Such a string is a literal, sent as written. Undefined when
 * the string holds no `$tool_output.<name>`, or is exactly the alias (a reference). Cheap for the common
 * string: one search for `$` (`dollar`, when the caller has made it).
 */
export function misusedToolOutputAlias(text: string, dollar = text.indexOf("$")): string | undefined {
  if (dollar === -1) return undefined;
  const at =
    dollar === 0 && text.startsWith(TOOL_OUTPUT_PREFIX) ? 0 : text.indexOf(TOOL_OUTPUT_PREFIX, dollar);
  if (at === -1) return undefined;
  const rest = text.slice(at + TOOL_OUTPUT_PREFIX.length);
  const id = CALL_ID.exec(rest)?.[0];
  if (id === undefined) return undefined;
  const alias = "$tool_output.<id> is an alias of †calls.<id> only as the whole value";
  if (at === 0 && id.length === rest.length) return undefined;
  if (at === 0 && !/\s/.test(rest)) return `use "†calls.${rest}": ${alias}`;
  return `inside text write {†calls.${id}} (or {†calls.${id}.<path>}): ${alias}`;
}
