import type { JsonObject, ThreadId } from "@obelisk/core";
import { asCallId, asRunId, formatReference } from "@obelisk/core";
import type { CommitFailure } from "../internal/commit-failure.js";
import { createMemoryStore } from "../memory-store.js";
import type {
  CallCommit,
  CallRecord,
  NumberedCommitOptions,
  StateStore,
  StateWrite,
  ThreadInfo,
} from "../store-types.js";

/**
 * Checks a write on a scratch memory store holding the thread as the write will find it: its state (none
 * for a thread `store` does not hold) under the schema it will have (`options.stateSchema`, else its own).
 * Answers the refusal `store` would give (undefined: accepted); `store` is only read. For stores without
 * `commitNumbered`: the same commit planner as the built-in stores, so a refusal is found before a call
 * number is reserved or the thread opened. Costs a copy of the thread's state.
 */
export async function checkOnScratch(
  store: StateStore,
  thread: ThreadInfo | undefined,
  threadId: ThreadId,
  build: (callNumber: number) => CallCommit,
  options: NumberedCommitOptions,
): Promise<CommitFailure | undefined> {
  const scratch = createMemoryStore();
  try {
    // a state the scratch store will not take (it always should) leaves the decision to the store itself
    if (thread !== undefined && !(await copyState(scratch, threadId, await store.readState(threadId))))
      return undefined;
    const stateSchema = options.stateSchema ?? thread?.stateSchema;
    const result = await scratch.commitNumbered?.(
      threadId,
      build,
      stateSchema === undefined ? {} : { stateSchema },
    );
    return result === undefined || result.ok ? undefined : result;
  } finally {
    await scratch.close();
  }
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
