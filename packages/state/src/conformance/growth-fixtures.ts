import type { JsonValue, RunId, ThreadId } from "@obelisk/core";
import { asCallId, asRunId, jsonByteSize } from "@obelisk/core";
import type { CallCommit, CallRecord, CallStatus, StateStore, StateWrite } from "../store-types.js";
import { THREAD } from "./commit-fixtures.js";

/** A value well over the default `recordResultBytes` (1,024 bytes of JSON). */
export const BIG = `big:${"x".repeat(2000)}`;
/** Its size in bytes of JSON, as `droppedResultBytes` reports it. */
export const BIG_BYTES = jsonByteSize(BIG);
/**
 * A value whose eviction alone makes the stores compact the log (one eviction of at least 256 KiB of
 * state variables: decision 0029); smaller evictions wait for the log to grow.
 */
export const HUGE = `huge:${"h".repeat(300 * 1024)}`;
/** Its size in bytes of JSON. */
export const HUGE_BYTES = jsonByteSize(HUGE);

/** Options of {@link callCommit}. */
export interface CallSpec {
  readonly callId: string;
  readonly threadId?: ThreadId;
  readonly runId?: string;
  readonly callHash?: string;
  readonly writes?: readonly StateWrite[];
  /** A stored output (`†calls.<id>`): also the record's result. */
  readonly output?: JsonValue;
  /** The record's result when it differs from the first write's value (a satisfied call's). */
  readonly result?: JsonValue;
  readonly status?: CallStatus;
}

/**
 * A commit as the scheduler builds one: the record's `result` is the value written (the first write's
 * value, the very object) or the stored output.
 */
export function callCommit(spec: CallSpec): CallCommit {
  const writes = spec.writes ?? [];
  const result = spec.result ?? spec.output ?? writes[0]?.value;
  const record: CallRecord = {
    threadId: spec.threadId ?? THREAD,
    runId: asRunId(spec.runId ?? "run-1"),
    callId: asCallId(spec.callId),
    tool: "tool",
    status: spec.status ?? "succeeded",
    attempts: 1,
    outputMethod: writes[0]?.method ?? "set",
    wrote: writes.map((w) => w.reference),
    ...(spec.callHash === undefined ? {} : { callHash: spec.callHash }),
    ...(result === undefined ? {} : { result }),
  };
  return { record, writes, ...(spec.output === undefined ? {} : { output: spec.output }) };
}

/** Commits a call, failing the test when the store refuses it. */
export async function commitCallOk(store: StateStore, spec: CallSpec): Promise<void> {
  const outcome = await store.commitCall(callCommit(spec));
  if (!outcome.ok) throw new Error(`commit refused: ${outcome.error.code} ${outcome.error.message}`);
}

/** The record of a call of a run, as listed. */
export async function recordOf(store: StateStore, runId: string, callId: string): Promise<CallRecord> {
  const record = (await store.listCallRecords(runId as RunId)).find((r) => r.callId === callId);
  if (record === undefined) throw new Error(`no record of ${callId} in ${runId}`);
  return record;
}

/** What a record keeps of its result: the result, or the bytes it dropped, and whether it has a call hash. */
export async function kept(store: StateStore, runId: string, callId: string) {
  const record = await recordOf(store, runId, callId);
  return {
    result: record.result === undefined ? "none" : "kept",
    dropped: record.droppedResultBytes,
    callHash: record.callHash,
  };
}
