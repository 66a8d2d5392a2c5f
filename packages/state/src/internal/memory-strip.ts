import type { CallRecord } from "../store-types.js";
import type { MemoryCallRecords } from "./memory-call-records.js";
import type { ThreadData } from "./memory-thread-data.js";
import { strippedRecord } from "./strip-record.js";
import type { VariableEntry } from "./thread-model.js";

/** Replaces a record none of whose values the thread holds by its copy without a large result. */
export function stripRecord(
  records: MemoryCallRecords,
  resultBytes: number,
  data: ThreadData,
  record: CallRecord,
): void {
  const stripped = strippedRecord(record, resultBytes);
  if (stripped !== undefined) records.replace(record, stripped, data.index);
}

/** The record that stored an output the thread no longer holds keeps no large result. */
export function stripOwner(
  records: MemoryCallRecords,
  resultBytes: number,
  data: ThreadData,
  output: VariableEntry,
): void {
  const record = records.ofCall(data.threadId, output.meta.runId, String(output.path[0]));
  if (record !== undefined) stripRecord(records, resultBytes, data, record);
}

/** A stored output goes (evicted, or replaced by another call's): its record keeps no large result. */
export function dropOutput(
  records: MemoryCallRecords,
  resultBytes: number,
  data: ThreadData,
  entry: VariableEntry,
): void {
  data.outputs.delete(String(entry.path[0]));
  stripOwner(records, resultBytes, data, entry);
}
