import type { ThreadId } from "@obelisk/core";
import type { EngineRuntime } from "./engine-runtime.js";

/**
 * Runs one variable edit (`set`, `reset`, `keepLastN`) holding the thread's run lock, as a run does: it waits
 * up to the engine's `lockWaitMs`, then throws THREAD_BUSY. So an edit never lands during a run (SPEC §8:
 * eviction after a run, never during one) and a run never sees its thread change under it. The thread is
 * opened with the engine's `stateSchema` first, so a write to a thread no run has touched yet is checked too.
 */
export async function editThread<T>(
  runtime: EngineRuntime,
  threadId: ThreadId,
  edit: () => Promise<T>,
): Promise<T> {
  const lock = await runtime.store.lockThread(threadId, { waitMs: runtime.options.lockWaitMs ?? 0 });
  try {
    const stateSchema = runtime.options.stateSchema;
    await runtime.store.openThread(threadId, stateSchema === undefined ? undefined : { stateSchema });
    return await edit();
  } finally {
    await lock.release();
  }
}
