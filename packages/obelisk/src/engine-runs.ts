import { asRunId, asThreadId, didYouMean, ObeliskError, type RunId } from "@obelisk/core";
import {
  type Awaitable,
  type LockHolder,
  RUN_STATUSES,
  type RunRecord,
  type RunStatus,
  type RunSummary,
  type RunsOptions,
  runSummary,
  type StateStore,
} from "@obelisk/state";
import { describeValue, shownValue } from "./describe-value.js";
import type { Engine, RunListOptions } from "./engine-types.js";
import { checkOptionsObject, refuseUnknownKeys, requireString } from "./facade-arguments.js";
import { runNotFound } from "./run-not-found.js";

const LIST_OPTIONS: ReadonlySet<string> = new Set([
  "threadId",
  "limit",
  "status",
  "waiting",
  "stale",
  "before",
  "plans",
]);
const PRUNE_OPTIONS: ReadonlySet<string> = new Set(["threadId", "keepLast", "olderThanMs"]);
const STATUSES: ReadonlySet<string> = new Set(RUN_STATUSES);

/** Throws USAGE unless `status` is a run status (with the nearest one as hint). */
function requireRunStatus(status: unknown): RunStatus {
  const text = requireString(status, "runs.list's status");
  if (STATUSES.has(text)) return text as RunStatus;
  throw new ObeliskError(
    "USAGE",
    `runs.list's status must be a run status, not ${JSON.stringify(text.slice(0, 40))}`,
    {
      hint: didYouMean(text, STATUSES) ?? `one of ${RUN_STATUSES.join(", ")}`,
    },
  );
}

/** Throws USAGE unless `waiting` is `true` (the only filter it names: leave it out for every run). */
function requireWaitingTrue(waiting: unknown): void {
  if (waiting === true) return;
  throw new ObeliskError(
    "USAGE",
    `runs.list's waiting must be true (the runs with a call waiting for approval), not ${describeValue(waiting)}`,
    { hint: "leave waiting out to list every run" },
  );
}

/**
 * Throws USAGE unless `stale` is `true` and `status` is `"running"`: only a `running` run can have a stale
 * lock (an ended run holds none), and naming the status keeps the loop that resumes them readable.
 */
function requireStaleRunning(stale: unknown, status: unknown): void {
  if (stale === true && status === "running") return;
  const why =
    stale === true
      ? `needs status "running" (an ended run holds no lock), not ${status === undefined ? "no status" : JSON.stringify(status)}`
      : `must be true (the running runs whose lock is stale), not ${describeValue(stale)}`;
  throw new ObeliskError("USAGE", `runs.list's stale ${why}`, {
    hint: 'runs.list({ status: "running", stale: true }) lists the running runs no live process holds; leave stale out for every run',
  });
}

/**
 * Whether no live run holds a thread, by its lock holder: none, or one whose heartbeat is older than the
 * store's `staleMs` (hung or gone: the next lock of the thread takes it over). The memory store's holder
 * has no heartbeat (a run of that very store, never taken over): never stale.
 */
function staleLock(holder: LockHolder | undefined): boolean {
  if (holder === undefined) return true;
  const { heartbeatAgeMs, staleMs } = holder;
  return heartbeatAgeMs !== undefined && staleMs !== undefined && heartbeatAgeMs > staleMs;
}

/**
 * The runs (all `running`) whose thread's lock is stale ({@link staleLock}), its holder asked once per
 * thread; USAGE for a store without `lockHolder` (a custom one).
 */
async function staleRuns(store: StateStore, runs: readonly RunRecord[]): Promise<readonly RunRecord[]> {
  const { lockHolder } = store;
  if (lockHolder === undefined)
    throw missingStoreMethod("lockHolder", 'runs.list({ status: "running", stale: true })');
  const stale = new Map<string, boolean>();
  const kept: RunRecord[] = [];
  for (const run of runs) {
    let held = stale.get(run.threadId);
    if (held === undefined) {
      held = staleLock(await lockHolder.call(store, run.threadId));
      stale.set(run.threadId, held);
    }
    if (held) kept.push(run);
  }
  return kept;
}

/**
 * Throws USAGE unless `limit` is a whole number from 1: `limit: 0` lists nothing, which is never what a
 * caller asks for (a count computed as 0, a page size mixed up with an offset), and the CLI's `runs list
 * --limit` takes no 0 either.
 */
function requireListLimit(limit: unknown): number {
  if (typeof limit === "number" && Number.isSafeInteger(limit) && limit >= 1) return limit;
  const given = typeof limit === "number" ? String(limit) : shownValue(limit);
  throw new ObeliskError("USAGE", `runs.list's limit must be a whole number from 1, not ${given}`, {
    hint: "leave limit out to list every run (newest first)",
  });
}

/**
 * `runs` unless it holds the `before` cursor's run itself: a store that answers it ignored `before` (a
 * custom one without paging), and its next page would repeat this one — USAGE instead of a loop.
 */
function pagedRuns<T extends RunRecord | RunSummary>(
  runs: readonly T[],
  before: RunId | undefined,
): readonly T[] {
  if (before === undefined || !runs.some((run) => run.runId === before)) return runs;
  throw missingStoreMethod("listRuns honouring before", "runs.list({ before })");
}

/** `runs` of `status` (a store that does not filter by status, a custom one, has its answer filtered here). */
function ofStatus<T extends RunRecord | RunSummary>(
  runs: readonly T[],
  status: RunStatus | undefined,
): readonly T[] {
  return status === undefined || runs.every((run) => run.status === status)
    ? runs
    : runs.filter((run) => run.status === status);
}

/** The store's runs waiting for approval; USAGE for a store without `listWaitingRuns` (a custom one). */
function listWaiting(store: StateStore, query: RunsOptions): Awaitable<readonly RunRecord[]> {
  if (store.listWaitingRuns === undefined)
    throw missingStoreMethod("listWaitingRuns", "runs.list({ waiting: true })");
  return store.listWaitingRuns(query);
}

/**
 * The engine's `runs`: `list` checks its options (USAGE: unknown keys, a thread id or status that is not
 * one, a `waiting` that is not `true`, a `stale` that is not `true` with status `running`, a `limit` that
 * is not a whole number from 1, a `before` that is no string) and passes them to the store (which pages by
 * `before`: RUN_NOT_FOUND, USAGE as it checks it); a store that
 * does not filter by status (a custom one) has its answer filtered here, `waiting` needs the store's
 * `listWaitingRuns` and `stale` its `lockHolder` (USAGE without). `show` reads a run and its call records.
 */
export function engineRuns(store: StateStore): Omit<Engine["runs"], "cancel"> {
  return {
    list: (async (listOptions?: RunListOptions) => {
      const given = checkOptionsObject(listOptions, "runs.list");
      if (given !== undefined) refuseUnknownKeys(given, LIST_OPTIONS, "runs.list");
      const { threadId, limit, status, waiting, stale, before, plans } = given ?? {};
      if (plans !== undefined && typeof plans !== "boolean")
        throw new ObeliskError(
          "USAGE",
          `runs.list's plans must be true or false, not ${describeValue(plans)}`,
          {
            hint: "plans: false lists each run without its plan and input, with its call count",
          },
        );
      if (threadId !== undefined) requireString(threadId, "runs.list's threadId");
      if (before !== undefined) requireString(before, "runs.list's before");
      if (status !== undefined) requireRunStatus(status);
      if (waiting !== undefined) requireWaitingTrue(waiting);
      if (stale !== undefined) requireStaleRunning(stale, status);
      if (limit !== undefined) requireListLimit(limit);
      const query = {
        ...(threadId === undefined ? {} : { threadId: asThreadId(threadId) }),
        // `stale` keeps some of the running runs: the limit counts those
        ...(limit === undefined || stale !== undefined ? {} : { limit }),
        ...(status === undefined ? {} : { status }),
        ...(before === undefined ? {} : { before: asRunId(before) }),
      };
      // summaries from the store when it has them (SQLite leaves plans and inputs out of the rows)
      if (plans === false && waiting === undefined && stale === undefined && store.listRunSummaries)
        return ofStatus(pagedRuns(await store.listRunSummaries(query), query.before), status);
      const runs = ofStatus(
        pagedRuns(
          await (waiting === undefined ? store.listRuns(query) : listWaiting(store, query)),
          query.before,
        ),
        status,
      );
      const kept = stale === undefined ? runs : await staleRuns(store, runs);
      const listed = stale === undefined || limit === undefined ? kept : kept.slice(0, limit);
      return plans === false ? listed.map((run) => runSummary(run)) : listed;
    }) as Engine["runs"]["list"],
    show: async (runId) => {
      const run = await store.getRun(asRunId(runId));
      if (run === undefined) throw runNotFound(runId);
      return { run, calls: await store.listCallRecords(asRunId(runId)) };
    },
    // the store checks keepLast and olderThanMs (whole numbers, at least one given: USAGE)
    prune: async (pruneOptions) => {
      const given = checkOptionsObject(pruneOptions, "runs.prune") ?? {};
      refuseUnknownKeys(given, PRUNE_OPTIONS, "runs.prune");
      const { threadId, ...criteria } = given;
      if (threadId !== undefined) requireString(threadId, "runs.prune's threadId");
      if (store.pruneRuns === undefined) throw missingStoreMethod("pruneRuns", "runs.prune");
      return store.pruneRuns({
        ...criteria,
        ...(threadId === undefined ? {} : { threadId: asThreadId(threadId) }),
      });
    },
  };
}

/** USAGE for an engine method a custom store cannot serve. */
export function missingStoreMethod(method: string, what: string): ObeliskError {
  return new ObeliskError("USAGE", `${what} needs a store with ${method}(); this engine's store has none`, {
    hint: "the built-in stores (createMemoryStore, createSqliteStore) have it",
  });
}
