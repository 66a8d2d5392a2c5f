import type { ThreadId } from "@obelisk/core";
import type { ThreadInfo } from "@obelisk/state";
import type { EngineRuntime } from "./engine-runtime.js";

/**
 * Runs one variable edit (`set`, `reset`, `keepLastN`) holding the thread's run lock, as a run does: it waits
 * up to the engine's `lockWaitMs`, then throws THREAD_BUSY. So an edit never lands during a run (SPEC §8:
 * eviction after a run, never during one) and a run never sees its thread change under it. The edit is
 * given the thread as the store holds it, read under the lock (undefined: the store holds no such thread).
 * Nothing here opens or creates the thread: an edit does that itself once it is accepted (`set`), so a
 * refused edit, or one with nothing to do on a thread the store does not hold, leaves no thread behind.
 */
export async function editThread<T>(
  runtime: EngineRuntime,
  threadId: ThreadId,
  edit: (thread: ThreadInfo | undefined) => Promise<T>,
): Promise<T> {
  const lock = await runtime.store.lockThread(threadId, { waitMs: runtime.options.lockWaitMs ?? 0 });
  try {
    return await edit(await runtime.store.getThread(threadId));
  } finally {
    await lock.release();
  }
}
