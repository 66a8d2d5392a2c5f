import {
  asCallId,
  asRunId,
  formatReference,
  type JsonObject,
  type JsonValue,
  type ThreadId,
} from "@obelisk/core";
import {
  type CallRecord,
  createMemoryStore,
  type SetValueOptions,
  type StateStore,
  type StateWrite,
  setValue,
  type ThreadInfo,
} from "@obelisk/state";
import { editThread } from "./edit-thread.js";
import type { EngineRuntime } from "./engine-runtime.js";
import { numberOnCommit } from "./number-on-commit.js";

/**
 * `engine.set`: writes one value by reference with a tool write's checks, under the thread's lock
 * ({@link editThread}). A refused write leaves the store exactly as it was (SPEC §11): it takes no call
 * number ({@link numberOnCommit}), and when the write would first open the thread — create it, or give it
 * the engine's `stateSchema` — it is tried on a scratch copy first, and the thread is opened only once
 * the write is accepted there.
 */
export async function setThreadValue(
  runtime: EngineRuntime,
  threadId: ThreadId,
  reference: string,
  value: JsonValue,
  options: SetValueOptions,
): Promise<void> {
  const store = runtime.store;
  await editThread(runtime, threadId, async (thread) => {
    const stateSchema = runtime.options.stateSchema;
    if (thread === undefined || givesSchema(thread, stateSchema)) {
      await trySet(store, threadId, thread, stateSchema, reference, value, options);
      await store.openThread(threadId, stateSchema === undefined ? undefined : { stateSchema });
    }
    await setValue(numberOnCommit(store), threadId, reference, value, options);
  });
}

/**
 * True when opening the thread with the engine's schema would change the schema it holds (the SQLite store
 * compares the JSON text, as here).
 */
function givesSchema(thread: ThreadInfo, stateSchema: JsonObject | undefined): boolean {
  return stateSchema !== undefined && JSON.stringify(stateSchema) !== JSON.stringify(thread.stateSchema);
}

/**
 * Tries the write on a scratch memory store holding the thread as it will be once opened: its state (none
 * for a thread the store does not hold) under the engine's `stateSchema`. Throws the write's refusal, as the store would.
 * Only the commit's dates come from the scratch store's own clock (the engine's is not asked twice).
 */
async function trySet(
  store: StateStore,
  threadId: ThreadId,
  thread: ThreadInfo | undefined,
  stateSchema: JsonObject | undefined,
  reference: string,
  value: JsonValue,
  options: SetValueOptions,
): Promise<void> {
  const scratch = createMemoryStore();
  // a state the scratch store will not take (it always should) leaves the decision to the store itself
  if (thread !== undefined && !(await copyState(scratch, threadId, await store.readState(threadId)))) return;
  await scratch.openThread(threadId, stateSchema === undefined ? undefined : { stateSchema });
  const { now: _now, ...checks } = options;
  await setValue(scratch, threadId, reference, value, checks);
}

/** The record of the commit that copies a state into a scratch thread. */
const copyRecord = (threadId: ThreadId): CallRecord => ({
  threadId,
  runId: asRunId("copy"),
  callId: asCallId("copy"),
  tool: "copy",
  status: "succeeded",
  attempts: 1,
  outputMethod: "set",
  wrote: [],
});

/** Writes `state` into `threadId` of `scratch`, one write per top-level key; false when it is refused. */
async function copyState(scratch: StateStore, threadId: ThreadId, state: JsonObject): Promise<boolean> {
  const writes = Object.entries(state).map(
    ([key, value]): StateWrite => ({
      path: [key],
      method: "set",
      value,
      reference: formatReference("state", [key]),
    }),
  );
  if (writes.length === 0) return true;
  // the state holds values written under other limits: the copy takes them all
  const copied = await scratch.commitCall({
    record: copyRecord(threadId),
    writes,
    maxValueBytes: Number.MAX_SAFE_INTEGER,
  });
  return copied.ok;
}
