import type { ThreadInfo } from "../store-types.js";

/** Threads by id in code-unit order (`<`, not the SQLite collation), so every backend lists them alike. */
export function byThreadId(threads: ThreadInfo[]): ThreadInfo[] {
  return threads.sort((a, b) => (a.threadId < b.threadId ? -1 : a.threadId > b.threadId ? 1 : 0));
}

/**
 * A thread's last activity, for `listIdleThreads` (decision 0104, Amended): its newest run's `endedAt`, or,
 * while that run has not ended, `"~"` (after every ISO time: it is active now); without a run, its creation.
 */
export function lastActivity(createdAt: string, newest: { readonly endedAt?: string } | undefined): string {
  return newest === undefined ? createdAt : (newest.endedAt ?? "~");
}
