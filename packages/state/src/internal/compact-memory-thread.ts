import type { MemoryCallRecords } from "./memory-call-records.js";
import { compactLog } from "./memory-log.js";
import { stripRecord } from "./memory-strip.js";
import { nextCompaction, type ThreadData } from "./memory-thread-data.js";
import type { ThreadModel } from "./thread-model.js";

/**
 * Compacts the thread's log (decision record 0029): values no later entry needs go, and the records
 * that held only such values keep no large result. Done when one eviction removes at least 256 KiB
 * (`COMPACT_MIN_BYTES`), or when the values written or evicted since the last time reach the state's
 * size (at least 256 KiB).
 */
export function compactMemoryThread(
  records: MemoryCallRecords,
  resultBytes: number,
  model: ThreadModel,
  data: ThreadData,
): void {
  // a log of writes of top-level keys no other entry touches: compacting would keep it all (the bench's
  // DAGs, a thread of fresh keys), and cost a pass over the log each time the state's size was written
  if (!data.plainLog) {
    const { log, emptied } = compactLog(data.log);
    data.log = log;
    for (const record of emptied) stripRecord(records, resultBytes, data, record);
  }
  nextCompaction(data, model);
}
