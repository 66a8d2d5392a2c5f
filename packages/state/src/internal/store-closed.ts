import { ObeliskError } from "@obelisk/core";

/** What every STORE_CLOSED says to do. */
const CLOSED_HINT =
  "the store was closed (store.close(), or engine.close() closing its store): create a new store, or engine, to go on";

/**
 * STORE_CLOSED of a `backend` store: a call after `close()`, or (`waitedFor`, a thread id) a wait for the
 * thread's lock that `close()` ended — the waiter was handed no lock, so nothing of its edit or run began.
 */
export function storeClosedError(backend: string, waitedFor?: string): ObeliskError {
  if (waitedFor === undefined)
    return new ObeliskError("STORE_CLOSED", `the ${backend} store is closed`, { hint: CLOSED_HINT });
  return new ObeliskError(
    "STORE_CLOSED",
    `the ${backend} store was closed while this waited for the lock of thread "${waitedFor}": nothing was changed`,
    { hint: CLOSED_HINT, data: { threadId: waitedFor } },
  );
}
