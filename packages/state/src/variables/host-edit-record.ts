import type { JsonValue, RunId, ThreadId } from "@obelisk/core";
import { asCallId } from "@obelisk/core";
import type { CallRecord } from "../store-types.js";

/** What differs between the records of a host's edits (`setValue`, `unsetValue`). */
export interface HostEdit {
  readonly threadId: ThreadId;
  readonly runId: RunId;
  readonly callId: string;
  readonly tool: string;
  /** When the edit was made (ISO 8601): it starts and ends then. */
  readonly date: string;
  /** The reference edited. */
  readonly reference: string;
  /** The value written (none for a removal). */
  readonly result?: JsonValue;
  readonly wrote: readonly string[];
  readonly description?: string;
}

/**
 * The call record of an edit a host makes outside any plan: one succeeded attempt of the edit's tool
 * (`obelisk.set`, `obelisk.unset`), numbered from the thread's counter like a plan's calls. Fields in
 * the order every record has them.
 */
export function hostEditRecord(edit: HostEdit): CallRecord {
  return {
    threadId: edit.threadId,
    runId: edit.runId,
    callId: asCallId(edit.callId),
    tool: edit.tool,
    status: "succeeded",
    attempts: 1,
    startedAt: edit.date,
    endedAt: edit.date,
    outputPath: edit.reference,
    outputMethod: "set",
    ...(edit.result === undefined ? {} : { result: edit.result }),
    wrote: edit.wrote,
    ...(edit.description === undefined ? {} : { description: edit.description }),
  };
}
