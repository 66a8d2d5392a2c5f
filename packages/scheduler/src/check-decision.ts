import { cutText, toJsonValue } from "@obelisk/core";
import { toRecordedError } from "./event-hub.js";

/** The reason of a rejection whose hook gave none (SPEC §7: a rejected call has its reason in the result). */
const DEFAULT_REJECT_REASON = "rejected by the confirm hook (no reason given)";
/** A rejection's reason is kept to this many characters (it is stored with the call and shown to the LLM). */
const MAX_REJECT_REASON_CHARS = 2_000;
/** A reason that is not text is copied as JSON up to this size (it is then cut to the characters above). */
const MAX_REASON_JSON_BYTES = 8_000;

/** What a confirmation hook answered, checked: a decision, or why it is not one. */
type CheckedDecision =
  | { readonly action: "approve" }
  | { readonly action: "modify"; readonly params: unknown }
  | { readonly action: "reject"; readonly reason: string }
  | { readonly action: "invalid"; readonly message: string };

/**
 * Reads a hook's answer once, defensively: anything but an object with a known `action` (undefined, null,
 * a string, a throwing getter) is invalid, so it fails the call with CONFIRM_ERROR (bug M4).
 */
export function checkDecision(decision: unknown): CheckedDecision {
  if (typeof decision !== "object" || decision === null)
    return { action: "invalid", message: `the confirm hook returned ${describe(decision)}, not a decision` };
  try {
    const { action } = decision as { action?: unknown };
    if (action === "approve") {
      // params with approve is ambiguous (the host may have meant modify): running the original would be wrong
      if ((decision as { params?: unknown }).params !== undefined)
        return {
          action: "invalid",
          message: 'the confirm hook approved with params: answer "modify" to change them',
        };
      return { action };
    }
    if (action === "modify") return { action, params: (decision as { params?: unknown }).params };
    if (action === "reject") {
      const reason = (decision as { reason?: unknown }).reason;
      if (reason === undefined || reason === null) return { action, reason: DEFAULT_REJECT_REASON };
      return { action, reason: cutText(reasonText(reason), MAX_REJECT_REASON_CHARS) };
    }
    return { action: "invalid", message: "the confirm hook returned an unknown action" };
  } catch (error) {
    return {
      action: "invalid",
      message: `reading the confirm hook's decision threw: ${toRecordedError(error).message}`,
    };
  }
}

/**
 * A rejection's reason as text (SPEC §7: a rejected call has its reason in the result): a string as given,
 * an error's message, a JSON value as JSON; anything else is described with what makes it not JSON and
 * where (`an object that is not JSON: a cycle (at /o)`) — never "[object Object]". The JSON is copied
 * with a byte limit, so a huge reason is not serialized whole only to be cut.
 */
function reasonText(reason: unknown): string {
  if (typeof reason === "string") return reason;
  if (reason instanceof Error) return toRecordedError(reason).message;
  const json = toJsonValue(reason, { maxBytes: MAX_REASON_JSON_BYTES });
  if (json.ok) return JSON.stringify(json.value);
  if (json.code === "OUTPUT_TOO_LARGE")
    return `${describe(reason)} larger than ${MAX_REASON_JSON_BYTES} bytes of JSON`;
  return `${describe(reason)} that is not JSON: ${json.message}`;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  const type = Array.isArray(value) ? "array" : typeof value;
  return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}
