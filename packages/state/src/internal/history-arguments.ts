import type { RunId, ThreadId } from "@obelisk/core";
import { ObeliskError } from "@obelisk/core";
import { RUN_STATUSES, type RunStatus } from "../store-types.js";

/** The checked arguments of `listRuns`. */
export interface RunsQuery {
  /** Only this thread's runs (undefined: every thread). */
  readonly threadId: ThreadId | undefined;
  /** At most this many, newest first (undefined: all). */
  readonly limit: number | undefined;
  /** Only runs of this status (undefined: any). */
  readonly status: RunStatus | undefined;
  /** Only runs recorded before this one (undefined: from the newest). */
  readonly before: RunId | undefined;
}

/** A backend's query of its run records as stored: of one thread, of some statuses, newest first. */
export interface StoredRunsQuery {
  readonly threadId: ThreadId | undefined;
  readonly limit: number | undefined;
  /** Only runs of these statuses (undefined: any). */
  readonly statuses: readonly RunStatus[] | undefined;
  /** Only runs with a call record `waiting` (`listWaitingRuns`). */
  readonly waiting: boolean;
  /** Only runs below this place in the backend's order of recording (undefined: all). */
  readonly before?: number | undefined;
}

const usage = (message: string, data: unknown): ObeliskError => new ObeliskError("USAGE", message, { data });

/**
 * `listRuns`' (or `listWaitingRuns`', named by `method`) options, checked the same way on every backend:
 * throws USAGE for anything else.
 */
export function checkRunsQuery(options: unknown, method = "listRuns"): RunsQuery {
  if (options === undefined)
    return { threadId: undefined, limit: undefined, status: undefined, before: undefined };
  if (options === null || typeof options !== "object" || Array.isArray(options))
    throw usage(`the options of ${method} must be an object { threadId?, limit?, status?, before? }`, {
      options: typeof options,
    });
  const { threadId, limit, status, before } = options as Record<string, unknown>;
  checkRunStatus(status);
  if (threadId !== undefined && typeof threadId !== "string")
    throw usage("threadId must be a string", { threadId: typeof threadId });
  if (before !== undefined && typeof before !== "string")
    throw usage("before must be a run id (a string)", { before: before === null ? "null" : typeof before });
  if (limit !== undefined && !(typeof limit === "number" && Number.isSafeInteger(limit) && limit >= 0))
    throw usage(
      `limit must be a whole number >= 0, not ${typeof limit === "string" ? JSON.stringify(limit) : String(limit)}`,
      {
        limit: String(limit),
      },
    );
  return {
    threadId: threadId as ThreadId | undefined,
    limit: limit as number | undefined,
    status: status as RunStatus | undefined,
    before: before as RunId | undefined,
  };
}

/**
 * The place of a listing's `before` cursor in the backend's order (`place` answers it, with the run's
 * thread, or undefined for a run it does not hold): RUN_NOT_FOUND for a run the store does not hold, USAGE
 * for one of another thread than the listing's.
 */
export function cursorPlace(
  before: RunId,
  threadId: ThreadId | undefined,
  place: (runId: RunId) => { readonly threadId: string; readonly place: number } | undefined,
): number {
  const found = place(before);
  const shown = JSON.stringify(before.slice(0, 120));
  if (found === undefined)
    throw new ObeliskError("RUN_NOT_FOUND", `no run ${shown} to list the runs before: the store holds none`, {
      data: { runId: before, before: true },
      hint: "a cursor is the last run of the page before; that run was pruned or its thread deleted since, or the id is wrong — list again from the newest (leave before out)",
    });
  if (threadId !== undefined && found.threadId !== threadId)
    throw usage(
      `before names run ${shown} of thread ${JSON.stringify(found.threadId.slice(0, 120))}, not of the listed thread ${JSON.stringify(threadId.slice(0, 120))}`,
      { runId: before, threadId: found.threadId },
    );
  return found.place;
}

/** A run status argument (undefined: none given): throws USAGE unless it is one of {@link RUN_STATUSES}. */
export function checkRunStatus(status: unknown): void {
  if (status === undefined || RUN_STATUSES.includes(status as RunStatus)) return;
  const shown = typeof status === "string" ? JSON.stringify(status.slice(0, 40)) : typeof status;
  throw new ObeliskError("USAGE", `status must be a run status, not ${shown}`, {
    data: { status: typeof status === "string" ? status.slice(0, 40) : typeof status },
    hint: `one of ${RUN_STATUSES.join(", ")}`,
  });
}

/**
 * A thread id argument: throws USAGE unless it is a string of well-formed UTF-16 (no lone surrogate: SQLite
 * would store another id, decision 0093).
 */
export function checkThreadId(threadId: unknown): ThreadId {
  if (typeof threadId !== "string")
    throw usage("a thread id must be a string", { threadId: typeof threadId });
  const at = loneSurrogateAt(threadId);
  if (at >= 0)
    throw new ObeliskError(
      "USAGE",
      `thread id ${JSON.stringify(threadId)} is not well-formed Unicode: a lone surrogate at index ${at}`,
      {
        data: { threadId: JSON.stringify(threadId), index: at },
        hint:
          "a character outside the BMP (an emoji) was cut in half: use whole characters " +
          "(SQLite would keep the id as another one, U+FFFD in its place)",
      },
    );
  return threadId as ThreadId;
}

/** Where the first UTF-16 surrogate without its other half is in `text`, or -1 (well-formed text). */
function loneSurrogateAt(text: string): number {
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    const next = text.charCodeAt(index + 1);
    if (unit > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return index;
    index++; // a pair: skip its low half
  }
  return -1;
}

/** A run id argument: throws USAGE unless it is a string. */
export function checkRunId(runId: unknown): RunId {
  if (typeof runId !== "string") throw usage("a run id must be a string", { runId: typeof runId });
  return runId as RunId;
}

/** The refusal of a run id the store already holds (USAGE, `data: { runId }`): a run's record is never replaced. */
export function recordedRunIdError(runId: RunId): ObeliskError {
  return new ObeliskError("USAGE", `run id ${String(runId)} is already recorded: a new run needs a new id`, {
    data: { runId },
    hint: "the recorded run is kept as it was; give the new run an id the store does not hold",
  });
}

/**
 * `finishRun`'s options, checked the same way on every backend: the `reason` given (a string), or undefined.
 * Throws USAGE for anything else (not an object, an unknown key, a reason that is no string).
 */
export function checkFinishOptions(options: unknown): string | undefined {
  if (options === undefined) return undefined;
  if (options === null || typeof options !== "object" || Array.isArray(options))
    throw usage("the options of finishRun must be an object { reason? }", { options: typeof options });
  const unknown = Object.keys(options).filter((key) => key !== "reason");
  if (unknown.length > 0)
    throw usage(`finishRun takes { reason? }, not ${unknown.map((key) => JSON.stringify(key)).join(", ")}`, {
      keys: unknown,
    });
  const { reason } = options as { reason?: unknown };
  if (reason !== undefined && typeof reason !== "string")
    throw usage(`finishRun's reason must be a string, got ${reason === null ? "null" : typeof reason}`, {
      reason: reason === null ? "null" : typeof reason,
    });
  return reason;
}
