import { type Diagnostic, ObeliskError, plural } from "@obelisk/core";
import { cutMessage } from "./cut-message.js";

/** Characters kept of the first error's pointer, message and hint in a PLAN_INVALID error. */
const FIRST_ERROR_CHARS = 200;

/** Where every diagnostic is, the end of each PLAN_INVALID hint. */
const ALL_DIAGNOSTICS =
  "every diagnostic (code, pointer, message, hint) is in error.data.diagnostics; engine.validate returns them too";

/**
 * The message of a PLAN_INVALID error: `lead`, how many errors, and the first one (code, pointer, message),
 * so a log of `error.message` says what is wrong and where.
 */
function invalidPlanMessage(diagnostics: readonly Diagnostic[], lead: string): string {
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === "error");
  const first = errors[0];
  const count = plural(errors.length, "error");
  if (first === undefined) return `${lead} (${count})`;
  const where = first.pointer === "" ? "the document" : cutMessage(first.pointer, FIRST_ERROR_CHARS);
  const text = cutMessage(first.message, FIRST_ERROR_CHARS);
  const others = errors.length > 1 ? ` (and ${plural(errors.length - 1, "more error")})` : "";
  return `${lead} (${count}): ${first.code} at ${where}: ${text}${others}`;
}

/** The hint of a PLAN_INVALID error: the first error's own hint (what to do about it), then where the rest are. */
function invalidPlanHint(diagnostics: readonly Diagnostic[]): string {
  const hint = diagnostics.find((diagnostic) => diagnostic.severity === "error")?.hint;
  return hint === undefined ? ALL_DIAGNOSTICS : `${cutMessage(hint, FIRST_ERROR_CHARS)} — ${ALL_DIAGNOSTICS}`;
}

/**
 * PLAN_INVALID for `diagnostics` (`data` as validate answers it): the message names the first error, the hint
 * is that error's own. `lead` says what is invalid ("the plan is invalid", "the input breaks its schema").
 */
export function planInvalidError(
  diagnostics: readonly Diagnostic[],
  data: { readonly ok: false; readonly planHash: string; readonly diagnostics: readonly Diagnostic[] },
  lead = "the plan is invalid",
): ObeliskError {
  return new ObeliskError("PLAN_INVALID", invalidPlanMessage(diagnostics, lead), {
    data,
    hint: invalidPlanHint(diagnostics),
  });
}
