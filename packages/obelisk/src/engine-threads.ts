import { ObeliskError } from "@obelisk/core";
import type { StateStore, ThreadInfo } from "@obelisk/state";
import { describeValue } from "./describe-value.js";
import { missingStoreMethod } from "./engine-runs.js";
import type { ThreadListing, ThreadListOptions } from "./engine-types.js";
import { checkOptionsObject, refuseUnknownKeys, requireString } from "./facade-arguments.js";

const LIST_OPTIONS: ReadonlySet<string> = new Set(["limit", "after"]);

/** The page `options` asks for of `threads` (in id order): those after `after`, at most `limit`. */
function page(threads: readonly ThreadInfo[], options: ThreadListOptions | undefined): readonly ThreadInfo[] {
  const given = checkOptionsObject(options, "threads.list");
  if (given === undefined) return threads;
  refuseUnknownKeys(given, LIST_OPTIONS, "threads.list");
  const { limit, after } = given;
  if (after !== undefined) requireString(after, "threads.list's after");
  if (limit !== undefined && !(typeof limit === "number" && Number.isSafeInteger(limit) && limit >= 1))
    throw new ObeliskError(
      "USAGE",
      `threads.list's limit must be a whole number from 1, not ${describeValue(limit)}`,
      {
        hint: "leave limit out to list every thread (by id)",
      },
    );
  // ids compare in code-unit order, the listing's: a cursor need not name a thread that is still held
  const from = after === undefined ? 0 : firstAfter(threads, after);
  return threads.slice(from, limit === undefined ? undefined : from + limit);
}

/** The index of the first thread whose id sorts after `after` (binary search: `threads` is in id order). */
function firstAfter(threads: readonly ThreadInfo[], after: string): number {
  let low = 0;
  let high = threads.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((threads[middle] as ThreadInfo).threadId <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * `threads.list`: the store's threads by id, each with its statistics and newest run (a read each, so a
 * listing is as fresh as the store's answers) — of the page `limit` and `after` ask for only (decision
 * 0104); USAGE for a store without `listThreads` and for options that are not a page.
 */
export async function listThreads(
  store: StateStore,
  options?: ThreadListOptions,
): Promise<readonly ThreadListing[]> {
  if (store.listThreads === undefined) throw missingStoreMethod("listThreads", "threads.list");
  const listed: ThreadListing[] = [];
  for (const { threadId, createdAt } of page(await store.listThreads(), options)) {
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
