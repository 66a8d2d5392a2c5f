import type { ThreadInfo } from "../store-types.js";

/** Threads by id in code-unit order (`<`, not the SQLite collation), so every backend lists them alike. */
export function byThreadId(threads: ThreadInfo[]): ThreadInfo[] {
  return threads.sort((a, b) => (a.threadId < b.threadId ? -1 : a.threadId > b.threadId ? 1 : 0));
}

/** After every ISO time: the last activity of a thread that is active now (never idle). */
const ACTIVE_NOW = "~";

/** The times of a run or call record that tell when it was last active (either may be missing). */
export interface ActivityTimes {
  readonly startedAt?: string | undefined;
  readonly endedAt?: string | undefined;
}

/** What `listIdleThreads` reads of a thread's newest run. */
export interface NewestRun extends ActivityTimes {
  readonly runId: string;
  readonly threadId: string;
  readonly status: string;
}

/** How a store answers for a newest run that did not end by itself (see {@link lastActivity}). */
export interface OpenRunReads {
  /** True when nobody can still be running the thread's `running` runs (the store's abandonment check). */
  readonly abandoned: (threadId: string) => boolean;
  /** The run's last committed call record (its greatest in commit order), or undefined without one. */
  readonly lastRecord: (runId: string) => ActivityTimes | undefined;
}

/**
 * A thread's last activity, for `listIdleThreads` (decision 0104, Amended): without a run, its creation; a
 * newest run that ended, its `endedAt`. A newest run that did not end by itself — `interrupted` (its
 * `endedAt` is when a store found it so), or `running` while nobody can still be running it — counts as
 * ended at its last recorded activity ({@link recordedActivity}), however long after that it was found.
 * A `running` run someone may still be running, or a record without the times, is active now (`"~"`).
 */
export function lastActivity(createdAt: string, newest: NewestRun | undefined, reads: OpenRunReads): string {
  if (newest === undefined) return createdAt;
  if (newest.status === "interrupted" || (newest.status === "running" && reads.abandoned(newest.threadId)))
    return recordedActivity(newest, reads.lastRecord(newest.runId)) ?? ACTIVE_NOW;
  return newest.status === "running" ? ACTIVE_NOW : (newest.endedAt ?? ACTIVE_NOW);
}

/**
 * A run's last recorded activity: the later of its start and its last committed call record's end (that
 * record's start when it has no end); undefined when the run's record has no start (a damaged record).
 */
export function recordedActivity(run: ActivityTimes, last: ActivityTimes | undefined): string | undefined {
  const { startedAt } = run;
  if (typeof startedAt !== "string") return undefined;
  const recorded = last?.endedAt ?? last?.startedAt;
  return typeof recorded === "string" && recorded > startedAt ? recorded : startedAt;
}
