import { ObeliskError } from "@obelisk/core";
import { cutMessage } from "./cut-message.js";

/** Characters of the asked-for run id kept in the message (the whole id is in `data.runId`). */
const RUN_ID_CHARS = 120;

/**
 * RUN_NOT_FOUND for `runs.show` and `resume`: which id was looked up, where, how to list the runs, and that
 * pruning removes runs — with `createEngine({ history })` a run the host saw minutes ago may be gone
 * (`data: { runId }`). It read `no run nope` with no hint.
 */
export function runNotFound(runId: string): ObeliskError {
  return new ObeliskError(
    "RUN_NOT_FOUND",
    `no run ${JSON.stringify(cutMessage(runId, RUN_ID_CHARS))} is recorded in this engine's store`,
    {
      data: { runId },
      hint: "engine.runs.list() lists the recorded runs, newest first (runs.list({ threadId, status }) narrows them); a run runs.prune or the engine's history option removed is no longer recorded",
    },
  );
}
