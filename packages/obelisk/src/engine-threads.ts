import { ObeliskError } from "@obelisk/core";
import type { RunRecord, StateStore, ThreadInfo } from "@obelisk/state";
import { describeValue } from "./describe-value.js";
import { missingStoreMethod } from "./engine-runs.js";
import type { ThreadListing, ThreadListOptions } from "./engine-types.js";
import { checkOptionsObject, refuseUnknownKeys, requireString } from "./facade-arguments.js";

const LIST_OPTIONS: ReadonlySet<string> = new Set(["limit", "after", "idleSince"]);

/** The earliest and latest times an ISO text of four-digit years holds (the stores' times are such). */
const FIRST_ISO_MS = Date.parse("0000-01-01T00:00:00.000Z");
const LAST_ISO_MS = Date.parse("9999-12-31T23:59:59.999Z");

/** `threads.list`'s options, checked: the page and, when given, the idle time as an ISO text. */
interface ListQuery {
  readonly limit: number | undefined;
  readonly after: string | undefined;
  readonly idleSince: string | undefined;
}

/** Checks `threads.list`'s options (USAGE for anything that is not a page or an idle time). */
function listQuery(options: ThreadListOptions | undefined): ListQuery {
  const given = checkOptionsObject(options, "threads.list");
  if (given === undefined) return { limit: undefined, after: undefined, idleSince: undefined };
  refuseUnknownKeys(given, LIST_OPTIONS, "threads.list");
  const { limit, after, idleSince } = given;
  if (after !== undefined) requireString(after, "threads.list's after");
  if (limit !== undefined && !(typeof limit === "number" && Number.isSafeInteger(limit) && limit >= 1))
    throw new ObeliskError(
      "USAGE",
      `threads.list's limit must be a whole number from 1, not ${describeValue(limit)}`,
      {
        hint: "leave limit out to list every thread (by id)",
      },
    );
  return { limit, after, idleSince: idleSince === undefined ? undefined : idleTime(idleSince) };
}

/**
 * `idleSince` as the ISO text the stores compare their times with: epoch milliseconds or a valid `Date`
 * (USAGE otherwise); a time outside four-digit years is the first or last such time (the same threads).
 */
function idleTime(idleSince: unknown): string {
  const ms = idleSince instanceof Date ? idleSince.getTime() : idleSince;
  if (typeof ms !== "number" || !Number.isFinite(ms))
    throw new ObeliskError(
      "USAGE",
      `threads.list's idleSince must be a time (epoch milliseconds or a valid Date), not ${describeValue(idleSince)}`,
      { hint: "e.g. idleSince: Date.now() - 7 * 86_400_000 lists the threads idle for a week" },
    );
  return new Date(Math.min(LAST_ISO_MS, Math.max(FIRST_ISO_MS, ms))).toISOString();
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
 * When a thread's newest run was last active, for a store without `listIdleThreads` (as the built-in stores
 * answer it): its `endedAt`; an `interrupted` one (`listRuns` marks a run nobody can still be running so)
 * its last recorded activity, the later of its start and its last call record's end; `"~"` (after every
 * time) while it is `running`.
 */
async function runActivity(store: StateStore, run: RunRecord): Promise<string> {
  if (run.status === "running") return "~";
  if (run.status !== "interrupted") return run.endedAt ?? "~";
  const last = (await store.listCallRecords(run.runId)).at(-1);
  const recorded = last?.endedAt ?? last?.startedAt;
  return recorded !== undefined && recorded > run.startedAt ? recorded : run.startedAt;
}

/**
 * The threads of the page `query` asks for (in id order): those after `after`, idle since `idleSince` when
 * given, at most `limit`. The store's `listIdleThreads` answers the idle ones; a store without it has each
 * thread from the cursor on asked for its newest run until the page is full.
 */
async function page(store: StateStore, query: ListQuery): Promise<readonly ThreadInfo[]> {
  const { limit, after, idleSince } = query;
  const askEach = idleSince !== undefined && store.listIdleThreads === undefined;
  const threads =
    idleSince === undefined || store.listIdleThreads === undefined
      ? ((await store.listThreads?.()) ?? [])
      : await store.listIdleThreads(idleSince);
  // ids compare in code-unit order, the listing's: a cursor need not name a thread that is still held
  const from = after === undefined ? 0 : firstAfter(threads, after);
  if (!askEach) return threads.slice(from, limit === undefined ? undefined : from + limit);
  const idle: ThreadInfo[] = [];
  for (let at = from; at < threads.length && idle.length !== limit; at++) {
    const thread = threads[at] as ThreadInfo;
    const [last] = await store.listRuns({ threadId: thread.threadId, limit: 1 });
    const activity = last === undefined ? thread.createdAt : await runActivity(store, last);
    if (activity < (idleSince as string)) idle.push(thread);
  }
  return idle;
}

/**
 * `threads.list`: the store's threads by id, each with its statistics and newest run (a read each, so a
 * listing is as fresh as the store's answers) — of the page `limit` and `after` ask for only, idle since
 * `idleSince` when given (decision 0104, Amended); USAGE for a store without `listThreads` and for options
 * that are not a page or a time.
 */
export async function listThreads(
  store: StateStore,
  options?: ThreadListOptions,
): Promise<readonly ThreadListing[]> {
  if (store.listThreads === undefined) throw missingStoreMethod("listThreads", "threads.list");
  const query = listQuery(options);
  const listed: ThreadListing[] = [];
  for (const { threadId, createdAt } of await page(store, query)) {
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
