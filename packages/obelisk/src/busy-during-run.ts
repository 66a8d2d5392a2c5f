import { ObeliskError, type RunId } from "@obelisk/core";

/**
 * A THREAD_BUSY that ends a run already started — its lock was taken over mid-run (a SQLite lock whose
 * heartbeat went stale), so its next commit was refused — with `data.runId` and `data.started: true`
 * beside the store's `threadId`, so a host's retry-on-busy logic can tell it from the THREAD_BUSY of a run
 * that never started (taking the lock: no `started`, nothing ran). Any other error is returned as it is.
 */
export function busyDuringRun(error: unknown, runId: RunId): unknown {
  if (!ObeliskError.is(error, "THREAD_BUSY")) return error;
  const given = error.data;
  const data = typeof given === "object" && given !== null && !Array.isArray(given) ? given : {};
  const started = `run ${JSON.stringify(runId)} had started, so some of its calls may have run (engine.runs.show(runId)); sending the plan again runs only what did not complete`;
  return new ObeliskError("THREAD_BUSY", error.message, {
    cause: error,
    data: { ...data, runId, started: true },
    hint: error.hint === undefined ? started : `${error.hint}; ${started}`,
  });
}
