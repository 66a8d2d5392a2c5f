import type { RunId, ThreadId } from "@obelisk/core";
import type { CallRecord } from "../store-types.js";
import {
  type CompletedIndex,
  indexUpToDate,
  type MemoryCallRecords,
  newCompletedIndex,
  newestOf,
} from "./memory-call-records.js";
import { compactLog } from "./memory-log.js";
import type { MemoryRuns } from "./memory-runs.js";
import type { ThreadData } from "./memory-thread-data.js";
import { editPruned, HOST_EDIT_RUN_IDS, satisfyingKeys } from "./prune-runs.js";
import { callKey } from "./strip-record.js";
import type { ThreadModel } from "./thread-model.js";

/** The records a prune keeps by call key (`keep`) and the holders of the values a compaction keeps (`holding`). */
interface Holders {
  readonly keep: ReadonlySet<string>;
  readonly holding: ReadonlySet<string>;
}

/**
 * The memory store's prune of a thread's runs: the removed runs' records go but for those a re-sent call
 * would be satisfied by for a value the thread still holds ({@link satisfyingKeys}): the holders are those
 * of the writes a compaction would keep (the log itself is left as it is, as SQLite leaves it until its
 * next snapshot). `modelOf` reads the thread's model, only when a record that could be kept is met.
 */
export function pruneMemoryThread(
  records: MemoryCallRecords,
  runs: MemoryRuns,
  data: ThreadData | undefined,
  modelOf: () => ThreadModel | undefined,
  threadId: ThreadId,
  runIds: readonly RunId[],
  editsBefore: number,
): { callRecords: number; kept: number } {
  // every record of the thread has its hash from here on (pruning keeps records by hash)
  const index = data === undefined ? newCompletedIndex() : indexUpToDate(data.index);
  // the holders are looked for only when a record that could be kept is met: one with a call hash (as SQLite)
  let found: Holders | undefined;
  const holdersNow = (): Holders => {
    found ??= holdersOf(records, data, modelOf(), threadId, index);
    return found;
  };
  const keeps = (record: CallRecord): boolean =>
    record.callHash !== undefined && holdersNow().keep.has(callKey(record.runId, record.callId));
  let callRecords = 0;
  let kept = 0;
  // the records earlier prunes kept, by the same rule: those that hold nothing any more go (0034, Amended)
  for (const runId of records.prunedOf(threadId)) {
    // the id is a run's again (recorded after the prune): its records are that run's until it is pruned
    const removed =
      runs.read(runId as RunId) === undefined ? records.removeRun(threadId, runId, index, keeps) : undefined;
    callRecords += removed?.removed ?? 0;
    if (removed === undefined || removed.kept === 0) records.forgetPruned(threadId, runId);
  }
  for (const runId of runIds) {
    const removed = records.removeRun(threadId, runId, index, keeps);
    callRecords += removed.removed;
    kept += removed.kept;
    if (removed.kept > 0) records.notePruned(threadId, runId);
    runs.remove(runId);
  }
  // host edits: those that ended before `editsBefore` and hold no value the thread has (decision 0034)
  if (editsBefore !== Number.NEGATIVE_INFINITY)
    for (const runId of HOST_EDIT_RUN_IDS) {
      const stays = (record: CallRecord): boolean =>
        holdersNow().holding.has(callKey(record.runId, record.callId)) || !editPruned(record, editsBefore);
      callRecords += records.removeRun(threadId, runId, index, stays).removed;
    }
  return { callRecords, kept };
}

/**
 * The records a re-sent call would be satisfied by for a value the thread still holds (`keep`, by call
 * key; {@link satisfyingKeys}) and the holders of the writes a compaction would keep (`holding`).
 */
function holdersOf(
  records: MemoryCallRecords,
  data: ThreadData | undefined,
  model: ThreadModel | undefined,
  threadId: ThreadId,
  index: CompletedIndex,
): Holders {
  const holding = new Set<string>();
  if (data === undefined || model === undefined) return { keep: new Set(), holding };
  const holders: CallRecord[] = [...compactLog(data.log).holding];
  for (const holder of holders) holding.add(callKey(holder.runId, holder.callId));
  for (const entry of model.callOutputs.values()) {
    const record = records.ofCall(threadId, entry.meta.runId, String(entry.path[0]));
    if (record !== undefined) holders.push(record);
  }
  return { keep: satisfyingKeys(holders, (hash, count) => newestOf(index, hash, count)), holding };
}
