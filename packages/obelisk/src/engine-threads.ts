import type { StateStore } from "@obelisk/state";
import { missingStoreMethod } from "./engine-runs.js";
import type { ThreadListing } from "./engine-types.js";

/**
 * `threads.list`: the store's threads by id, each with its statistics and newest run (a read each, so a
 * listing is as fresh as the store's answers); USAGE for a store without `listThreads`.
 */
export async function listThreads(store: StateStore): Promise<readonly ThreadListing[]> {
  if (store.listThreads === undefined) throw missingStoreMethod("listThreads", "threads.list");
  const listed: ThreadListing[] = [];
  for (const { threadId, createdAt } of await store.listThreads()) {
    const stats = await store.stats(threadId);
    const [last] = await store.listRuns({ threadId, limit: 1 });
    listed.push({
      threadId,
      createdAt,
      variables: stats.variables,
      variableBytes: stats.variableBytes,
      callOutputs: stats.callOutputs,
      callOutputBytes: stats.callOutputBytes,
      runs: stats.runs,
      ...(last === undefined
        ? {}
        : {
            lastRun: {
              runId: last.runId,
              status: last.status,
              startedAt: last.startedAt,
              ...(last.endedAt === undefined ? {} : { endedAt: last.endedAt }),
            },
          }),
    });
  }
  return listed;
}
