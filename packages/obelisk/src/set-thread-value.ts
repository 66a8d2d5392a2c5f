import {
  DEFAULT_LIMITS,
  type JsonValue,
  jsonByteSizeWithin,
  ObeliskError,
  type ThreadId,
} from "@obelisk/core";
import { type SetValueOptions, setValue } from "@obelisk/state";
import { editThread } from "./edit-thread.js";
import type { EngineRuntime } from "./engine-runtime.js";

/**
 * `engine.set`: writes one value by reference with a tool write's checks, under the thread's lock
 * ({@link editThread}). The thread takes the engine's `stateSchema` with the write, as a run's thread is
 * opened with it. A refused write leaves the store exactly as it was (SPEC §11): `setValue` checks the
 * write first and takes the call number, creates the thread and gives it the schema only with the
 * accepted commit (decision 0022). A value over `maxValueBytes` is USAGE before the thread is locked, as a
 * run's input is: the caller gave it, and no store is asked (a store that is not there yet stays so).
 */
export async function setThreadValue(
  runtime: EngineRuntime,
  threadId: ThreadId,
  reference: string,
  value: JsonValue,
  options: SetValueOptions,
): Promise<void> {
  const maxValueBytes = options.maxValueBytes ?? DEFAULT_LIMITS.maxValueBytes;
  if (jsonByteSizeWithin(value, maxValueBytes) === undefined) throw tooLarge(reference, maxValueBytes);
  const stateSchema = runtime.options.stateSchema;
  await editThread(runtime, threadId, async () => {
    await setValue(runtime.store, threadId, reference, value, {
      ...options,
      ...(stateSchema === undefined ? {} : { stateSchema }),
    });
  });
}

/** The refusal of a value over the engine's `maxValueBytes`: what the limit is, and how to raise it. */
export function tooLarge(reference: string, maxValueBytes: number): ObeliskError {
  return new ObeliskError(
    "USAGE",
    `${reference}: the value is larger than ${maxValueBytes} bytes of JSON (limits.maxValueBytes)`,
    {
      data: { reference, maxValueBytes },
      hint: `store a smaller value, or raise the limit: createEngine({ limits: { maxValueBytes: <n> } }) (now ${maxValueBytes})`,
    },
  );
}
