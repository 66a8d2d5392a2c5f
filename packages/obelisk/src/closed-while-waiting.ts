import { ObeliskError } from "@obelisk/core";
import type { RunLease } from "./active-runs.js";

/** STORE_CLOSED for a run or edit that waited for its thread's lock while `engine.close()` began. */
export function closedWhileWaiting(threadId: unknown, what: "run" | "edit"): ObeliskError {
  const nothing = what === "run" ? "nothing ran" : "nothing was changed";
  return new ObeliskError(
    "STORE_CLOSED",
    `the engine was closed while this ${what} waited for thread ${JSON.stringify(threadId)}: ${nothing}`,
    {
      data: { threadId },
      hint: "engine.close() ends an engine for good: send it to a new engine (createEngine) with an open store",
    },
  );
}

/**
 * The error of a lock wait: the store's THREAD_BUSY "gave up waiting: the run was cancelled" becomes
 * STORE_CLOSED when it was `engine.close()` that ended the wait (nobody cancelled; a host must not retry).
 */
export function lockWaitError(
  error: unknown,
  lease: Pick<RunLease, "stoppedBy">,
  what: "run" | "edit",
): unknown {
  if (lease.stoppedBy !== "engine-close" || !ObeliskError.is(error) || error.code !== "THREAD_BUSY")
    return error;
  const data = error.data as { threadId?: unknown; cancelled?: unknown } | undefined;
  return data?.cancelled === true ? closedWhileWaiting(data.threadId, what) : error;
}
