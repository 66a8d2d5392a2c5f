import { ObeliskError } from "@obelisk/core";
import { cutMessage } from "./cut-message.js";

/** Characters of the asked-for run id kept in the message (the whole id is in `data.runId`). */
const RUN_ID_CHARS = 120;

/**
 * RUN_NOT_FOUND for `runs.show` and `resume`: which id was looked up, where, and how to list the runs
 * (`data: { runId }`). It read `no run nope` with no hint.
 */
export function runNotFound(runId: string): ObeliskError {
  return new ObeliskError(
    "RUN_NOT_FOUND",
    `no run ${JSON.stringify(cutMessage(runId, RUN_ID_CHARS))} is recorded in this engine's store`,
    {
      data: { runId },
      hint: "engine.runs.list() lists the recorded runs, newest first (runs.list({ threadId, status }) narrows them)",
    },
  );
}
