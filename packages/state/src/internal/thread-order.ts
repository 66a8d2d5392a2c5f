import type { ThreadInfo } from "../store-types.js";

/** Threads by id in code-unit order (`<`, not the SQLite collation), so every backend lists them alike. */
export function byThreadId(threads: ThreadInfo[]): ThreadInfo[] {
  return threads.sort((a, b) => (a.threadId < b.threadId ? -1 : a.threadId > b.threadId ? 1 : 0));
}
