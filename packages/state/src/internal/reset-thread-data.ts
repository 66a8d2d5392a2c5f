import { indexUpToDate, type MemoryCallRecords, newCompletedIndex } from "./memory-call-records.js";
import { newLog, recordsHolding } from "./memory-log.js";
import { stripRecord } from "./memory-strip.js";
import type { ThreadData } from "./memory-thread-data.js";

/**
 * A reset commit: nothing any record wrote is in the thread any more, so they keep no large result
 * (decision 0029); the log, the outputs and the satisfied index start afresh.
 */
export function resetThreadData(records: MemoryCallRecords, resultBytes: number, data: ThreadData): void {
  for (const record of recordsHolding(data.log)) stripRecord(records, resultBytes, data, record);
  data.log = newLog();
  data.plainLog = true;
  data.outputs.clear();
  indexUpToDate(data.index); // the hashes still to fill in, before the index goes
  data.index = newCompletedIndex();
  data.churnBytes = 0;
}
