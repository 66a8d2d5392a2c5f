import type { JsonValue, ThreadId } from "@obelisk/core";
import { type SetValueOptions, setValue } from "@obelisk/state";
import { editThread } from "./edit-thread.js";
import type { EngineRuntime } from "./engine-runtime.js";

/**
 * `engine.set`: writes one value by reference with a tool write's checks, under the thread's lock
 * ({@link editThread}). The thread takes the engine's `stateSchema` with the write, as a run's thread is
 * opened with it. A refused write leaves the store exactly as it was (SPEC §11): `setValue` checks the
 * write first and takes the call number, creates the thread and gives it the schema only with the
 * accepted commit (decision 0022).
 */
export async function setThreadValue(
  runtime: EngineRuntime,
  threadId: ThreadId,
  reference: string,
  value: JsonValue,
  options: SetValueOptions,
): Promise<void> {
  const stateSchema = runtime.options.stateSchema;
  await editThread(runtime, threadId, async () => {
    await setValue(runtime.store, threadId, reference, value, {
      ...options,
      ...(stateSchema === undefined ? {} : { stateSchema }),
    });
  });
}
