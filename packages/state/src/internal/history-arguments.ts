import type { RunId, ThreadId } from "@obelisk/core";
import { ObeliskError } from "@obelisk/core";

/** The checked arguments of `listRuns`. */
export interface RunsQuery {
  /** Only this thread's runs (undefined: every thread). */
  readonly threadId: ThreadId | undefined;
  /** At most this many, newest first (undefined: all). */
  readonly limit: number | undefined;
}

const usage = (message: string, data: unknown): ObeliskError => new ObeliskError("USAGE", message, { data });

/** `listRuns`' options, checked the same way on every backend: throws USAGE for anything else. */
export function checkRunsQuery(options: unknown): RunsQuery {
  if (options === undefined) return { threadId: undefined, limit: undefined };
  if (options === null || typeof options !== "object" || Array.isArray(options))
    throw usage("the options of listRuns must be an object { threadId?, limit? }", {
      options: typeof options,
    });
  const { threadId, limit } = options as { threadId?: unknown; limit?: unknown };
  if (threadId !== undefined && typeof threadId !== "string")
    throw usage("threadId must be a string", { threadId: typeof threadId });
  if (limit !== undefined && !(typeof limit === "number" && Number.isSafeInteger(limit) && limit >= 0))
    throw usage(
      `limit must be a whole number >= 0, not ${typeof limit === "string" ? JSON.stringify(limit) : String(limit)}`,
      {
        limit: String(limit),
      },
    );
  return { threadId: threadId as ThreadId | undefined, limit: limit as number | undefined };
}

/** A run id argument: throws USAGE unless it is a string. */
export function checkRunId(runId: unknown): RunId {
  if (typeof runId !== "string") throw usage("a run id must be a string", { runId: typeof runId });
  return runId as RunId;
}
