import { jsonByteSize } from "@obelisk/core";
import type { CallRecord } from "../store-types.js";

/**
 * The copy of a call record a store keeps once nothing its call wrote is still in the thread (decision
 * record 0029): without `result` and `callHash` (it no longer makes a re-sent call `satisfied`), with
 * `droppedResultBytes`, when its result is larger than `maxBytes` (bytes of JSON); undefined when the
 * record stays as it is (no result, or one of at most `maxBytes`). Frozen, like every stored record.
 */
export function strippedRecord(record: CallRecord, maxBytes: number): CallRecord | undefined {
  if (record.result === undefined || maxBytes === Number.POSITIVE_INFINITY) return undefined;
  const bytes = jsonByteSize(record.result);
  if (bytes <= maxBytes) return undefined;
  const { result: _result, callHash: _callHash, ...kept } = record;
  return Object.freeze({ ...kept, droppedResultBytes: bytes });
}

/** The key of one call of one run: a record's owner of values, as the write log and outputs name it. */
export function callKey(runId: string, callId: string): string {
  return `${runId}\u0000${callId}`;
}
