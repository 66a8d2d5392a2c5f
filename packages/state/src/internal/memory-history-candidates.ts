import type { RunId, ThreadId } from "@obelisk/core";
import type { MemoryCallRecords } from "./memory-call-records.js";
import type { MemoryRuns } from "./memory-runs.js";
import { type HistoryCandidates, historyRunOf } from "./prune-history.js";

/**
 * The memory store's candidates for `pruneHistory`, from the thread's index of run ids, oldest first (see
 * `MemoryRuns.historyOf`): ended runs no open run continues, and not waiting unless resumed.
 */
export function memoryHistoryCandidates(
  runs: MemoryRuns,
  records: MemoryCallRecords,
  threadId: ThreadId,
  keepRuns: number,
  limit: number,
): HistoryCandidates {
  const { stoppedAt, candidates } = runs.historyOf(
    threadId,
    keepRuns,
    limit,
    (run) =>
      run.status !== "running" &&
      run.status !== "interrupted" &&
      (!records.hasWaiting(threadId, run.runId) || runs.resumeOf(run.runId) !== undefined) &&
      !continuedByOpenRun(runs, run.runId),
  );
  return {
    oldestKept: stoppedAt === undefined ? undefined : historyRunOf(stoppedAt),
    candidates: candidates.map(historyRunOf),
  };
}

/**
 * True when a run that continued `runId`, resume after resume, is still `running` or `interrupted`: its
 * resume chain reads this run's record and call records (`pruneHistory` keeps it).
 */
function continuedByOpenRun(runs: MemoryRuns, runId: RunId): boolean {
  const seen = new Set<string>([runId]);
  for (let next = runs.resumeOf(runId); next !== undefined; next = runs.resumeOf(next.runId)) {
    if (next.status === "running" || next.status === "interrupted") return true;
    if (seen.has(next.runId)) return false;
    seen.add(next.runId);
  }
  return false;
}
