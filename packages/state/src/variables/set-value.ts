import type { JsonValue, RunId, ThreadId } from "@obelisk/core";
import { asCallId, ObeliskError } from "@obelisk/core";
import type { CallRecord, StateStore } from "../store-types.js";
import { parseStoredReference } from "./parse-stored-reference.js";

/** The tool name recorded for values written by {@link setValue}. */
export const SET_VALUE_TOOL = "obelisk.set";

/** Options of {@link setValue}. */
export interface SetValueOptions {
  /** Run id recorded with the write (default `obelisk.set`). */
  readonly runId?: RunId;
  /** Description of the value, shown in summaries. */
  readonly description?: string;
  /** Clock for the record's times (default `Date.now`). */
  readonly now?: () => number;
  /** Largest value that may be written, in bytes of JSON (the engine's `maxValueBytes`; default 64 MiB). */
  readonly maxValueBytes?: number;
}

/**
 * Writes one value by reference (`obelisk state set`) with the same checks as a tool's write: a `†state`
 * path, JSON value, no forbidden segment, the thread's state schema. Committed like a call
 * (tool `obelisk.set`, call id `obelisk-set$<n>` from the thread counter). Throws ObeliskError
 * (REF_*, OUTPUT_PATH_READONLY, OUTPUT_SCHEMA_VIOLATION, OUTPUT_WRITE_FAILED).
 */
export async function setValue(
  store: StateStore,
  threadId: ThreadId,
  reference: string,
  value: JsonValue,
  options: SetValueOptions = {},
): Promise<{ readonly callId: string; readonly reference: string }> {
  const target = parseStoredReference(reference, true);
  if (target.path.length === 0)
    throw new ObeliskError("USAGE", "state set needs a path below †state (e.g. †state.user)");
  if (target.path.some((segment) => typeof segment === "number" && segment < 0)) {
    throw new ObeliskError("USAGE", `${target.text}: negative indices cannot be written`);
  }
  const number = await store.reserveCallNumbers(threadId, 1);
  const callId = asCallId(`obelisk-set$${number}`);
  const date = new Date((options.now ?? Date.now)()).toISOString();
  const record: CallRecord = {
    threadId,
    runId: options.runId ?? ("obelisk.set" as RunId),
    callId,
    tool: SET_VALUE_TOOL,
    status: "succeeded",
    attempts: 1,
    startedAt: date,
    endedAt: date,
    outputPath: target.text,
    outputMethod: "set",
    result: value,
    wrote: [target.text],
    ...(options.description === undefined ? {} : { description: options.description }),
  };
  const result = await store.commitCall({
    record,
    writes: [{ path: target.path, method: "set", value, reference: target.text }],
    ...(options.maxValueBytes === undefined ? {} : { maxValueBytes: options.maxValueBytes }),
  });
  if (!result.ok)
    throw new ObeliskError(result.error.code, result.error.message, { data: { reference: target.text } });
  return { callId, reference: target.text };
}
