import type { RunId, ThreadId } from "@obelisk/core";
import { ObeliskError } from "@obelisk/core";
import type { CallRecord, RunRecord } from "../store-types.js";
import { callKey } from "./strip-record.js";

/** The checked options of `pruneRuns`. */
export interface PruneQuery {
  readonly threadId: ThreadId | undefined;
  readonly keepLast: number | undefined;
  readonly olderThanMs: number | undefined;
}

const KEYS: ReadonlySet<string> = new Set(["threadId", "keepLast", "olderThanMs"]);

const usage = (message: string, data: unknown, hint?: string): ObeliskError =>
  new ObeliskError("USAGE", message, { data, ...(hint === undefined ? {} : { hint }) });

const shown = (value: unknown): string =>
  typeof value === "string" ? JSON.stringify(value.slice(0, 40)) : String(value);

/**
 * `pruneRuns`' options, checked the same way on every backend (USAGE, nothing removed): an object with
 * `threadId` (a string), `keepLast` (a whole number >= 0) and/or `olderThanMs` (a number >= 0), at least
 * one of the last two, and no other key (a misspelt one would prune more than meant).
 */
export function checkPruneRuns(options: unknown): PruneQuery {
  if (options === null || typeof options !== "object" || Array.isArray(options))
    throw usage("the options of pruneRuns must be an object { threadId?, keepLast?, olderThanMs? }", {
      options: options === null ? "null" : typeof options,
    });
  const unknown = Object.keys(options).find((key) => !KEYS.has(key));
  if (unknown !== undefined)
    throw usage(
      `pruneRuns has no option ${JSON.stringify(unknown.slice(0, 40))}`,
      { option: unknown },
      "options: threadId, keepLast, olderThanMs",
    );
  const { threadId, keepLast, olderThanMs } = options as Record<string, unknown>;
  if (threadId !== undefined && typeof threadId !== "string")
    throw usage("threadId must be a string", { threadId: typeof threadId });
  if (
    keepLast !== undefined &&
    !(typeof keepLast === "number" && Number.isSafeInteger(keepLast) && keepLast >= 0)
  )
    throw usage(`keepLast must be a whole number >= 0, not ${shown(keepLast)}`, {
      keepLast: String(keepLast),
    });
  if (
    olderThanMs !== undefined &&
    !(typeof olderThanMs === "number" && Number.isFinite(olderThanMs) && olderThanMs >= 0)
  )
    throw usage(`olderThanMs must be a number >= 0, not ${shown(olderThanMs)}`, {
      olderThanMs: String(olderThanMs),
    });
  if (keepLast === undefined && olderThanMs === undefined)
    throw usage(
      "pruneRuns needs keepLast and/or olderThanMs: which finished runs should go?",
      {},
      "keepLast: 0 removes every finished run",
    );
  return {
    threadId: threadId as ThreadId | undefined,
    keepLast: keepLast as number | undefined,
    olderThanMs: olderThanMs as number | undefined,
  };
}

/**
 * The runs of one thread (newest first) that `pruneRuns` removes: finished (never `running`, nor
 * `interrupted`: its record is what `resume` re-runs, until a resume or `runs.cancel` ends it), beyond the
 * newest `keepLast`, and ended more than `olderThanMs` before `nowMs` (a run without a readable end time
 * is not old enough).
 */
export function selectPrunedRuns(runs: readonly RunRecord[], query: PruneQuery, nowMs: number): RunId[] {
  const pruned: RunId[] = [];
  const { keepLast, olderThanMs } = query;
  runs.forEach((run, position) => {
    if (run.status === "running" || run.status === "interrupted") return;
    if (keepLast !== undefined && position < keepLast) return;
    if (!endedLongAgo(run, olderThanMs, nowMs)) return;
    pruned.push(run.runId);
  });
  return pruned;
}

/**
 * True when `run` ended more than `olderThanMs` before `nowMs` (always without `olderThanMs`); a run without
 * a readable end time is not old enough.
 */
export function endedLongAgo(
  run: { readonly endedAt?: string | undefined },
  olderThanMs: number | undefined,
  nowMs: number,
): boolean {
  if (olderThanMs === undefined) return true;
  const ended = run.endedAt === undefined ? Number.NaN : Date.parse(run.endedAt);
  return nowMs - ended > olderThanMs;
}

/**
 * The records a re-sent plan's calls would be satisfied by for the values the thread still holds: for
 * each call hash, as many of its newest succeeded records (`newest`) as there are records holding one of
 * its values (`holders`: the records of writes still in the state and of stored outputs). Keys by
 * {@link callKey}. Pruning keeps these, so it never turns such a call from `satisfied` into a run.
 */
export function satisfyingKeys(
  holders: Iterable<Pick<CallRecord, "callHash">>,
  newest: (callHash: string, count: number) => readonly Pick<CallRecord, "runId" | "callId">[],
): Set<string> {
  const counts = new Map<string, number>();
  for (const holder of holders)
    if (holder.callHash !== undefined) counts.set(holder.callHash, (counts.get(holder.callHash) ?? 0) + 1);
  const keys = new Set<string>();
  for (const [hash, count] of counts)
    for (const record of newest(hash, count)) keys.add(callKey(record.runId, record.callId));
  return keys;
}

/**
 * The shared run ids of a host's edits (`setValue`, `unsetValue`): no run, so `pruneRuns` selects their
 * records by time (decision record 0034).
 */
export const HOST_EDIT_RUN_IDS: readonly RunId[] = Object.freeze([
  "obelisk.set" as RunId,
  "obelisk.unset" as RunId,
]);

/**
 * Before when (ms) the records of a thread's host edits ended for `pruneRuns` to remove them (those that
 * hold no value the thread has): before the start of the oldest run `keepLast` keeps (no run kept: any
 * time), and more than `olderThanMs` before `nowMs`; both given, both. `-Infinity` when none is old
 * enough (the oldest run kept has no readable start time). `runs`: the thread's, newest first.
 */
export function editsPrunedBefore(runs: readonly RunRecord[], query: PruneQuery, nowMs: number): number {
  let before = Number.POSITIVE_INFINITY;
  const { keepLast, olderThanMs } = query;
  if (keepLast !== undefined && keepLast > 0 && runs.length > 0) {
    const oldestKept = runs[Math.min(keepLast, runs.length) - 1] as RunRecord;
    const started = Date.parse(oldestKept.startedAt);
    before = Number.isNaN(started) ? Number.NEGATIVE_INFINITY : started;
  }
  if (olderThanMs !== undefined) before = Math.min(before, nowMs - olderThanMs);
  return before;
}

/** True when `pruneRuns` removes a host edit's record: it ended before `before` (see {@link editsPrunedBefore}). */
export function editPruned(record: Pick<CallRecord, "endedAt">, before: number): boolean {
  const ended = record.endedAt === undefined ? Number.NaN : Date.parse(record.endedAt);
  return ended < before;
}
