import { asRunId, asThreadId, didYouMean, ObeliskError } from "@obelisk/core";
import {
  type Awaitable,
  RUN_STATUSES,
  type RunRecord,
  type RunStatus,
  type RunsOptions,
  type StateStore,
} from "@obelisk/state";
import { describeValue, shownValue } from "./describe-value.js";
import type { Engine } from "./engine-types.js";
import { checkOptionsObject, refuseUnknownKeys, requireString } from "./facade-arguments.js";
import { runNotFound } from "./run-not-found.js";

const LIST_OPTIONS: ReadonlySet<string> = new Set(["threadId", "limit", "status", "waiting"]);
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

/** The store's runs waiting for approval; USAGE for a store without `listWaitingRuns` (a custom one). */
function listWaiting(store: StateStore, query: RunsOptions): Awaitable<readonly RunRecord[]> {
  if (store.listWaitingRuns === undefined)
    throw missingStoreMethod("listWaitingRuns", "runs.list({ waiting: true })");
  return store.listWaitingRuns(query);
}

/**
 * The engine's `runs`: `list` checks its options (USAGE: unknown keys, a thread id or status that is not
 * one, a `waiting` that is not `true`, a `limit` that is not a whole number from 1) and passes them to the
 * store; a store that
 * does not filter by status (a custom one) has its answer filtered here, and `waiting` needs the store's
 * `listWaitingRuns` (USAGE without it). `show` reads a run and its call records.
 */
export function engineRuns(store: StateStore): Omit<Engine["runs"], "cancel"> {
  return {
    list: async (listOptions) => {
      const given = checkOptionsObject(listOptions, "runs.list");
      if (given !== undefined) refuseUnknownKeys(given, LIST_OPTIONS, "runs.list");
      const { threadId, limit, status, waiting } = given ?? {};
      if (threadId !== undefined) requireString(threadId, "runs.list's threadId");
      if (status !== undefined) requireRunStatus(status);
      if (waiting !== undefined) requireWaitingTrue(waiting);
      if (limit !== undefined) requireListLimit(limit);
      const query = {
        ...(threadId === undefined ? {} : { threadId: asThreadId(threadId) }),
        ...(limit === undefined ? {} : { limit }),
        ...(status === undefined ? {} : { status }),
      };
      const runs = await (waiting === undefined ? store.listRuns(query) : listWaiting(store, query));
      return status === undefined || runs.every((run) => run.status === status)
        ? runs
        : runs.filter((run) => run.status === status);
    },
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
