import type { JsonValue, Mutable } from "@obelisk/core";
import { DEFAULT_LIMITS, toJsonValue } from "@obelisk/core";
import type { CallCommit, CallRecord, RecordedError, StateWrite } from "../store-types.js";
import { maxBytesOf } from "./copy-writes.js";
import { frozenJsonBound, isFrozenJson } from "./frozen-json.js";
import type { RecordBounds } from "./plan-commit.js";
import { trimParams } from "./trim-params.js";

/** Frozen one-reference `wrote` lists by reference, shared by the records (bounded: cleared when full). */
const SINGLE_WROTE = new Map<string, readonly string[]>();
const SINGLE_WROTE_MAX = 4096;

/** True when every item of a list is a string. */
function allStrings(list: readonly unknown[]): boolean {
  for (let index = 0; index < list.length; index++) if (typeof list[index] !== "string") return false;
  return true;
}

/**
 * A frozen copy of a record's `wrote`: a frozen list of strings (what the scheduler hands over) is kept as
 * it is. Otherwise most calls write one target: those share one frozen array per reference text (records
 * are frozen, so sharing is invisible), instead of each retaining its own; once the table is full, new
 * texts get their own array (clearing it would make a plan of many distinct targets rebuild it forever).
 */
function frozenWrote(wrote: readonly string[]): readonly string[] {
  if (Object.isFrozen(wrote) && allStrings(wrote)) return wrote;
  if (wrote.length !== 1) return Object.freeze(wrote.slice());
  const only = wrote[0] as string;
  let shared = SINGLE_WROTE.get(only);
  if (shared === undefined) {
    shared = Object.freeze([only]);
    if (SINGLE_WROTE.size < SINGLE_WROTE_MAX) SINGLE_WROTE.set(only, shared);
  }
  return shared;
}

/**
 * Fills in the call hash of a record {@link copyRecord} left unfrozen (see `CallCommit.callHashOf`) and
 * freezes it, as every stored record is; a record that is frozen already is left as it is.
 */
export function fillCallHash(record: CallRecord, callHashOf: (record: CallRecord) => string): CallRecord {
  if (Object.isFrozen(record)) return record;
  (record as Mutable<CallRecord>).callHash = callHashOf(record);
  return Object.freeze(record);
}

/** Why a field of the record is not JSON. */
export class NotJson {
  constructor(readonly message: string) {}
}

/**
 * A JSON field of the record as stored (undefined stays undefined): a value that is already deep-frozen
 * JSON ({@link isFrozenJson}, e.g. the parameters the scheduler resolved and froze) is kept, as its copy
 * could not differ from it; anything else is copied.
 */
function storedField(value: JsonValue | undefined, maxBytes: number): JsonValue | undefined | NotJson {
  if (value === undefined || isFrozenJson(value, maxBytes)) return value;
  const copy = toJsonValue(value, { maxBytes });
  return copy.ok ? copy.value : new NotJson(copy.message);
}

/**
 * A frozen copy of the call record, built field by field in one fixed order (an object spread followed by
 * `Object.freeze` leaves V8 a slow dictionary object: ~1.5 µs per commit, and slower reads after). Fields
 * outside the CallRecord contract are not stored (both backends keep the same fields). Its JSON parts are
 * copied; a `result` that is the very value written (or stored as output) reuses that copy. Parameters over
 * `paramsBytes` are kept trimmed ({@link trimParams}), with `droppedParamsBytes` (decision record 0034).
 * A `succeeded` record sent without `callHash` and with `commit.callHashOf` gets its hash now, or, in the
 * common literal, is left unfrozen with `callHash` undefined (its place kept in the key order) for the store
 * to fill in ({@link fillCallHash}).
 */
export function copyRecord(
  record: CallRecord,
  commit: CallCommit,
  writes: readonly StateWrite[],
  output: JsonValue | undefined,
  bounds: RecordBounds,
): CallRecord | NotJson {
  // Never below the default: a small engine limit must not lose the record of a call that failed (a tool's
  // error is not held to that limit, and the error reporting OUTPUT_TOO_LARGE may pass it itself).
  const maxBytes = Math.max(maxBytesOf(commit), DEFAULT_LIMITS.maxValueBytes);
  // one walk of frozen parameters for both bounds (the common case: kept as they are, nothing trimmed)
  const bound = record.params === undefined ? -1 : frozenJsonBound(record.params);
  let params: JsonValue | undefined;
  let droppedBytes: number | undefined;
  if (bound >= 0 && bound <= maxBytes && bound <= bounds.paramsBytes) params = record.params;
  else {
    const given = bound >= 0 && bound <= maxBytes ? record.params : storedField(record.params, maxBytes);
    if (given instanceof NotJson) return given;
    ({ params, droppedBytes } = trimParams(given, bounds.paramsBytes));
  }
  const error = storedField(record.error as JsonValue | undefined, maxBytes);
  if (error instanceof NotJson) return error;
  const reused =
    record.result === undefined
      ? undefined
      : record.result === commit.output
        ? output
        : record.result === commit.writes[0]?.value
          ? writes[0]?.value
          : undefined;
  const result = reused === undefined ? storedField(record.result, maxBytes) : reused;
  if (result instanceof NotJson) return result;
  const { startedAt, endedAt, callHash, outputPath } = record;
  // the hash filled in later by the store (CallCommit.callHashOf): the copy stays unfrozen until then
  const deferred = callHash === undefined && commit.callHashOf !== undefined && record.status === "succeeded";
  const later = deferred && bounds.defersCallHash;
  if (
    startedAt !== undefined &&
    endedAt !== undefined &&
    (callHash !== undefined || later) &&
    params !== undefined &&
    droppedBytes === undefined &&
    result !== undefined &&
    record.branch === undefined &&
    error === undefined &&
    record.reason === undefined &&
    record.satisfiedBy === undefined &&
    record.outputId === undefined &&
    record.description === undefined &&
    record.plannedParams === undefined
  ) {
    // The common completed call in one literal, fields in the same order as below.
    const { threadId, runId, callId, tool, status, attempts, outputMethod } = record;
    const wrote = frozenWrote(record.wrote);
    // a record handed over (CallCommit.recordHandedOver) that holds what the copy would is kept itself
    if (
      commit.recordHandedOver === true &&
      outputPath !== undefined &&
      params === record.params &&
      result === record.result &&
      wrote === record.wrote &&
      !Object.isFrozen(record)
    )
      return later ? record : Object.freeze(record);
    // `callHash` undefined (to fill in) keeps its place in the key order
    const copy = (
      outputPath === undefined
        ? {
            threadId,
            runId,
            callId,
            tool,
            status,
            attempts,
            startedAt,
            endedAt,
            callHash,
            params,
            outputMethod,
            result,
            wrote,
          }
        : {
            threadId,
            runId,
            callId,
            tool,
            status,
            attempts,
            startedAt,
            endedAt,
            callHash,
            params,
            outputPath,
            outputMethod,
            result,
            wrote,
          }
    ) as CallRecord;
    return later ? copy : Object.freeze(copy);
  }
  const copy = {
    threadId: record.threadId,
    runId: record.runId,
    callId: record.callId,
    tool: record.tool,
    status: record.status,
  } as Mutable<CallRecord>;
  if (record.branch !== undefined) copy.branch = record.branch;
  copy.attempts = record.attempts;
  if (record.startedAt !== undefined) copy.startedAt = record.startedAt;
  if (record.endedAt !== undefined) copy.endedAt = record.endedAt;
  if (record.callHash !== undefined) copy.callHash = record.callHash;
  else if (deferred) copy.callHash = (commit.callHashOf as (record: CallRecord) => string)(record);
  if (params !== undefined) copy.params = params;
  if (record.outputPath !== undefined) copy.outputPath = record.outputPath;
  copy.outputMethod = record.outputMethod;
  if (result !== undefined) copy.result = result;
  copy.wrote = frozenWrote(record.wrote);
  if (error !== undefined) copy.error = error as unknown as RecordedError;
  if (record.reason !== undefined) copy.reason = record.reason;
  if (typeof record.satisfiedBy === "string") copy.satisfiedBy = record.satisfiedBy;
  if (typeof record.outputId === "string") copy.outputId = record.outputId;
  if (record.description !== undefined) copy.description = record.description;
  if (droppedBytes !== undefined) copy.droppedParamsBytes = droppedBytes;
  if (record.plannedParams !== undefined) {
    const planned = storedField(record.plannedParams, maxBytes);
    if (planned instanceof NotJson) return planned;
    const kept = trimParams(planned, bounds.paramsBytes).params;
    if (kept !== undefined) copy.plannedParams = kept;
  }
  return Object.freeze(copy);
}
