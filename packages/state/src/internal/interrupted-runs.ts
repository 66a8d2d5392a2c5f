import type { ThreadId } from "@obelisk/core";
import type { RunRecord, RunSummary } from "../store-types.js";

/**
 * A run left `running` with its thread's lock released: its process stopped, or it released the lock after
 * the store refused to record its end (another program held the database's write lock past the busy
 * timeout, a full disk): the store cannot tell which (decision 0099).
 */
const LEFT_RUNNING = "the run was left running: its process stopped, or could not record its end";

/**
 * Why the runs still `running` on a thread just locked are `interrupted`: a run holds its thread's lock
 * until its record is finished, so whoever held the lock before did not finish them. `takeover` describes
 * the lock taken over from a process judged gone or hung (SQLite), if it was one.
 */
export function lockedAgainReason(threadId: ThreadId, takeover: string | undefined): string {
  const thread = JSON.stringify(threadId);
  return takeover === undefined
    ? `thread ${thread} was locked again while no run held it: ${LEFT_RUNNING}`
    : `thread ${thread} was locked again, its lock taken over from ${takeover}: the run did not end`;
}

/**
 * Why a `running` run found on reading is `interrupted`: nobody holds its thread's lock, or the process
 * holding it (`holder`, SQLite: same host, pid not alive) is gone — or, with `why`, the holder is known gone
 * otherwise (SQLite: a row of this thread of this process that no store of it holds).
 */
export function unheldReason(threadId: ThreadId, holder: string | undefined, why?: string): string {
  const thread = JSON.stringify(threadId);
  if (holder === undefined) return `no run holds thread ${thread}: ${LEFT_RUNNING}`;
  return why === undefined || why === "its process is gone"
    ? `the process holding thread ${thread} (${holder}) is gone: it stopped without ending this run`
    : `the lock of thread ${thread} (${holder}) was left behind (${why}): whoever held it stopped without ending this run`;
}

/** `run` marked `interrupted` at `endedAt` for `reason` (what a read-only store answers without writing). */
export function interruptedRecord<T extends RunRecord | RunSummary>(
  run: T,
  reason: string,
  endedAt: string,
): T {
  return { ...run, status: "interrupted", endedAt, reason };
}
