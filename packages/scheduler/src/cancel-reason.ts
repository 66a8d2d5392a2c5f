import { cutText } from "@obelisk/core";

/** Most characters of the caller's abort reason kept in the calls' reason. */
const CANCEL_REASON_CHARS = 200;

/**
 * The reason cancelled calls give: "run cancelled", with the caller's own reason when it gave one
 * (`controller.abort("user pressed stop")`, an `Error`); Node's default abort reason adds nothing, and a
 * timeout signal says so.
 */
export function cancelReason(signal: AbortSignal): string {
  let detail: string | undefined;
  try {
    const reason: unknown = signal.reason;
    if (reason instanceof Error && reason.name === "TimeoutError") detail = "the run's signal timed out";
    else if (reason instanceof Error && reason.name !== "AbortError") detail = String(reason.message);
    else if (typeof reason === "string") detail = reason;
  } catch {
    detail = undefined; // a reason that cannot be read adds nothing
  }
  if (detail === undefined || detail.trim() === "") return "run cancelled";
  return `run cancelled: ${cutText(detail, CANCEL_REASON_CHARS)}`;
}
