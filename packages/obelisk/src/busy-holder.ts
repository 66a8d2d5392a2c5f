import { ObeliskError, type ThreadId } from "@obelisk/core";
import type { StateStore } from "@obelisk/state";

/**
 * A THREAD_BUSY of taking a thread's lock, with `data.holderRunId`: the thread's newest `running` run, the
 * one the holder runs, when the store records one (not yet when the holder has the lock but has not
 * recorded its run, nor for a host edit); a service answering 409 can point at it (decision 0104). Any
 * other error, a cancelled wait, or a store that cannot tell, is returned as it is.
 */
export async function withHolderRun(store: StateStore, threadId: ThreadId, error: unknown): Promise<unknown> {
  if (!ObeliskError.is(error, "THREAD_BUSY")) return error;
  const given = error.data;
  const data = typeof given === "object" && given !== null && !Array.isArray(given) ? given : {};
  if ("cancelled" in data) return error;
  let holderRunId: string | undefined;
  try {
    // the lock is held: the store marks none of these runs interrupted as it lists them
    const [holder] = await store.listRuns({ threadId, status: "running", limit: 1 });
    holderRunId = holder?.runId;
  } catch {
    return error;
  }
  if (holderRunId === undefined) return error;
  const see = `run ${JSON.stringify(holderRunId)} holds it (engine.runs.show(runId))`;
  return new ObeliskError("THREAD_BUSY", error.message, {
    cause: error,
    data: { ...data, holderRunId },
    hint: error.hint === undefined ? see : `${error.hint}; ${see}`,
  });
}
