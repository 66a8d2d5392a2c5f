import { asThreadId } from "@obelisk/core";
import type { StateStore } from "obelisk";

/** Everything observable about one thread in a store, as JSON text (to compare before and after). */
export async function storeSnapshot(store: StateStore, thread: string): Promise<string> {
  const threadId = asThreadId(thread);
  const runs = await store.listRuns({ threadId });
  const records = await Promise.all(runs.map((run) => store.listCallRecords(run.runId)));
  return JSON.stringify({
    state: await store.readState(threadId),
    log: await store.readWriteLog(threadId),
    runs,
    records,
    outputs: await store.listCallOutputIds(threadId),
    variables: await store.listVariables(threadId),
    stats: await store.stats(threadId),
  });
}
