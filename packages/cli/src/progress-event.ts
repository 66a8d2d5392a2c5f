import type { RunEvent } from "obelisk";
import type { ProgressEvent } from "./progress.js";

/**
 * Maps an engine event to what the progress display shows (undefined for events it does not show); with
 * `stacks`, a failed call's end carries the stack of the error its tool threw (`--verbose`, `OBELISK_DEBUG`).
 */
export function toProgressEvent(event: RunEvent, stacks = false): ProgressEvent | undefined {
  switch (event.type) {
    case "call-start":
      return { type: "call-start", callId: event.callId, tool: event.tool, attempt: event.attempt };
    case "call-retry":
      return {
        type: "call-retry",
        callId: event.callId,
        tool: event.tool,
        attempt: event.attempt + 1,
        message: event.error.message,
      };
    case "call-end": {
      const detail =
        event.error !== undefined
          ? `${event.error.code ?? event.error.name}: ${event.error.message}`
          : event.reason;
      // the first alternative is the default arm: only another one is worth a word
      const taken = event.outcome ?? `branch ${event.branch}`;
      const branch =
        event.branch !== undefined && event.branch > 0
          ? event.branchPath === undefined
            ? taken
            : `${taken} → ${event.branchPath}`
          : undefined;
      const text = [branch, detail].filter((part) => part !== undefined).join(", ");
      return {
        type: "call-end",
        callId: event.callId,
        tool: event.tool,
        status: event.status,
        ...(event.attempts > 0 ? { durationMs: event.durationMs } : {}),
        ...(text === "" ? {} : { detail: text }),
        ...(stacks && event.error?.stack !== undefined ? { stack: event.error.stack } : {}),
      };
    }
    case "run-superseded":
      return { type: "run-superseded", runId: event.supersededRunId, resumed: event.resumed };
    default:
      return undefined;
  }
}
