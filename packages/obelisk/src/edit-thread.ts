import type { ThreadId } from "@obelisk/core";
import { closedWhileWaiting, lockWaitError } from "./closed-while-waiting.js";
import type { EngineRuntime } from "./engine-runtime.js";

/**
 * Runs one variable edit (`set`, `unset`, `reset`, `keepLastN`) holding the thread's run lock, as a run
 * does: it waits up to the engine's `lockWaitMs`, then throws THREAD_BUSY. So an edit never lands during a
 * run (SPEC §8: eviction after a run, never during one) and a run never sees its thread change under it.
 * Nothing here opens or creates the thread: the store creates it only with an accepted change (`set`), so a
 * refused edit, or one with nothing to do on a thread the store does not hold, leaves no thread behind
 * (decision 0022). An edit holds a lease as a run does: after `engine.close()` began it is STORE_CLOSED,
 * one waiting for the lock then gives up, and `close()` waits for one under way before the store closes.
 */
export async function editThread<T>(
  runtime: EngineRuntime,
  threadId: ThreadId,
  edit: () => Promise<T>,
): Promise<T> {
  const lease = runtime.active.lease(undefined);
  try {
    const waitMs = runtime.options.lockWaitMs ?? 0;
    const lock = await runtime.store.lockThread(threadId, { waitMs, signal: lease.signal }).catch((error) => {
      throw lockWaitError(error, lease, "edit");
    });
    try {
      // the lock may come in the moment close() began (a cancelled run released it): change nothing then
      if (lease.signal.aborted) throw closedWhileWaiting(threadId, "edit");
      return await edit();
    } finally {
      await lock.release();
    }
  } finally {
    lease.release();
  }
}
