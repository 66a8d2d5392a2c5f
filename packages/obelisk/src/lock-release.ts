import { ObeliskError, thrownMessage } from "@obelisk/core";
import type { RunLock } from "@obelisk/state";
import { cutMessage } from "./cut-message.js";

/** The process warning code for a thread lock whose release failed while another error was thrown. */
const LOCK_RELEASE_WARNING_CODE = "OBELISK_LOCK_RELEASE_ERROR";

/**
 * Releases `lock` after `failure` ended the work it guarded: the caller throws `failure` (the error that
 * says what went wrong), so a release that fails too is reported as a process warning naming both,
 * instead of replacing it (decision 0092).
 */
export async function releaseAfter(lock: RunLock, failure: unknown): Promise<void> {
  try {
    await lock.release();
  } catch (error) {
    process.emitWarning(
      `releasing the thread's lock failed after the run failed (${named(failure)}): ${named(error)}`,
      { code: LOCK_RELEASE_WARNING_CODE },
    );
  }
}

/** An error's code (for an ObeliskError) and message, cut to a readable length. */
function named(error: unknown): string {
  const message = cutMessage(thrownMessage(error));
  return ObeliskError.is(error) ? `${error.code}: ${message}` : message;
}
