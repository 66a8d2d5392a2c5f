import type { RunId, ThreadId } from "@obelisk/core";
import { ObeliskError } from "@obelisk/core";
import type { RunRecord } from "../store-types.js";
import { endedLongAgo } from "./prune-runs.js";

/**
 * The most runs one `pruneHistory` removes (and candidates it reads): the cost of one call stays bounded
 * however long the thread's history is, and a backlog (a policy given to a thread of 10,000 runs) goes over
 * the following runs, 31 more each than the one run each adds.
 */
export const HISTORY_BATCH = 32;

/** The checked `HistoryPolicy`: `keepRuns` defaults to 1 (the thread's newest run always stays). */
export interface HistoryQuery {
  readonly keepRuns: number;
  readonly olderThanMs: number | undefined;
}

/** A run `pruneHistory` looks at: its id and times as stored (a time unreadable there is undefined). */
export interface HistoryRun {
  readonly runId: RunId;
  readonly startedAt: string | undefined;
  readonly endedAt: string | undefined;
}

/**
 * What a backend answers `pruneHistory`: the oldest run of the newest `keepRuns` (undefined: the thread has
 * no run) and, oldest first, at most `limit` runs older than it that may go — not `running`, not
 * `interrupted`, not waiting for a person (a `waiting` call record) unless a run has resumed it, and not
 * continued, resume after resume, by a run still `running` or `interrupted`.
 */
export interface HistoryCandidates {
  readonly oldestKept: HistoryRun | undefined;
  readonly candidates: readonly HistoryRun[];
}

const FIELDS: ReadonlySet<string> = new Set(["keepRuns", "olderThanMs"]);

const shown = (value: unknown): string =>
  typeof value === "string" ? JSON.stringify(value.slice(0, 40)) : String(value);

/**
 * A history policy (`what` names it in messages: the engine's `history` option, or `pruneHistory`'s
 * policy), checked the same way everywhere: USAGE unless an object with `keepRuns` (a whole number >= 1)
 * and/or `olderThanMs` (a finite number >= 0), at least one, and no other key.
 */
export function checkHistoryPolicy(policy: unknown, what = "the history policy"): HistoryQuery {
  if (policy === null || typeof policy !== "object" || Array.isArray(policy))
    throw new ObeliskError("USAGE", `${what} must be an object { keepRuns?, olderThanMs? }`, {
      data: { policy: policy === null ? "null" : Array.isArray(policy) ? "array" : typeof policy },
    });
  const unknown = Object.keys(policy).find((key) => !FIELDS.has(key));
  if (unknown !== undefined)
    throw new ObeliskError("USAGE", `${what} has no field ${JSON.stringify(unknown.slice(0, 40))}`, {
      data: { field: unknown.slice(0, 40) },
      hint: "fields: keepRuns, olderThanMs",
    });
  const { keepRuns, olderThanMs } = policy as Record<string, unknown>;
  if (
    keepRuns !== undefined &&
    !(typeof keepRuns === "number" && Number.isSafeInteger(keepRuns) && keepRuns >= 1)
  )
    throw new ObeliskError("USAGE", `${what}: keepRuns must be a whole number >= 1, not ${shown(keepRuns)}`, {
      data: { keepRuns: shown(keepRuns) },
      hint: "the run that just ended always stays (a failed or cancelled one may still be resumed): keepRuns: 1 keeps only it",
    });
  if (
    olderThanMs !== undefined &&
    !(typeof olderThanMs === "number" && Number.isFinite(olderThanMs) && olderThanMs >= 0)
  )
    throw new ObeliskError("USAGE", `${what}: olderThanMs must be a number >= 0, not ${shown(olderThanMs)}`, {
      data: { olderThanMs: shown(olderThanMs) },
    });
  if (keepRuns === undefined && olderThanMs === undefined)
    throw new ObeliskError("USAGE", `${what} needs keepRuns and/or olderThanMs: which runs should go?`, {
      data: {},
      hint: "keepRuns: 100 keeps a thread's newest 100 runs; olderThanMs: 604800000 removes those that ended over a week ago",
    });
  return { keepRuns: (keepRuns as number | undefined) ?? 1, olderThanMs: olderThanMs as number | undefined };
}

/** The candidates that ended more than `olderThanMs` before `nowMs` (all of them without it); oldest first. */
export function oldEnough(candidates: readonly HistoryRun[], query: HistoryQuery, nowMs: number): RunId[] {
  return candidates.filter((run) => endedLongAgo(run, query.olderThanMs, nowMs)).map((run) => run.runId);
}

/**
 * Before when (ms) the thread's host edits' records ended for `pruneHistory` to remove them (those that hold
 * no value): before the start of the oldest run kept, and more than `olderThanMs` before `nowMs` when given
 * (as `pruneRuns` with `keepLast`). `-Infinity` (none) when the thread has no run or the oldest kept has no
 * readable start time.
 */
export function historyEditsBefore(
  oldestKept: HistoryRun | undefined,
  query: HistoryQuery,
  nowMs: number,
): number {
  const started = oldestKept?.startedAt === undefined ? Number.NaN : Date.parse(oldestKept.startedAt);
  if (Number.isNaN(started)) return Number.NEGATIVE_INFINITY;
  return query.olderThanMs === undefined ? started : Math.min(started, nowMs - query.olderThanMs);
}

/** The refusal of `pruneHistory` by a caller that does not hold the thread's lock. */
export function historyLockError(threadId: ThreadId): ObeliskError {
  return new ObeliskError(
    "USAGE",
    `pruneHistory of thread ${JSON.stringify(threadId)} needs the thread's lock: nothing was removed`,
    {
      data: { threadId },
      hint: "take it with lockThread first (the engine prunes after each run, under the run's lock), or use pruneRuns",
    },
  );
}

/** A run record as `pruneHistory` looks at it. */
export const historyRunOf = (run: RunRecord): HistoryRun => ({
  runId: run.runId,
  startedAt: run.startedAt,
  endedAt: run.endedAt,
});
