import type { ThreadBusyHolder } from "@obelisk/core";

/**
 * Who holds a thread's run lock, as {@link StateStore.lockHolder} answers it: the process as THREAD_BUSY's
 * `data.holder` names it (`host`, `pid`, `workerThreadId`, `sameProcess`) and, for a lock kept alive by a
 * heartbeat (SQLite), its last heartbeat and the age at which it is taken over. The memory store's lock has
 * no heartbeat: a run of that very store holds it until the run ends (never taken over), so its answer is
 * this process with `sameProcess: true` and none of the three heartbeat fields.
 */
export type LockHolder = ThreadBusyHolder;
