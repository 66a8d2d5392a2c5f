import { asCallId, asRunId, asThreadId, isoTime, type JsonValue, type Mutable } from "@obelisk/core";
import type { CallRecord, RecordedError } from "@obelisk/state";
import type { CallReport, CallRun, CallStatusFacts } from "./runner-types.js";

/** The final facts of a call, from which its record and report are built. */
export type CallEnding = CallStatusFacts<RecordedError> & {
  /** Value written / stored (kept so a satisfied call can re-apply it). */
  readonly result?: JsonValue;
  /** References written. */
  readonly wrote: readonly string[];
};

/** Where and when a call ended. */
export interface RecordContext {
  readonly threadId: string;
  readonly runId: string;
  /** Clock time of the end. */
  readonly endedAt: number;
  /** The run's value limit, given to the store with each commit (what it may store, in bytes of JSON). */
  readonly maxValueBytes: number;
}

/** Most characters of an error message kept in a record cut by {@link keepableRecord}. */
const CUT_MESSAGE_CHARS = 1_000;

/**
 * A record the store can keep when it refused the full one (a field too large, or not JSON): no
 * parameters or result, the error cut to its name, code and the start of its message, with the reason.
 */
export function keepableRecord(record: CallRecord, reason: string): CallRecord {
  const { params: _params, plannedParams: _planned, result: _result, error, ...rest } = record;
  const message = `${String(error?.message ?? "").slice(0, CUT_MESSAGE_CHARS)} (record cut by the store: ${reason.slice(0, 200)})`;
  const code = typeof error?.code === "string" ? { code: error.code } : {};
  return { ...rest, error: { name: String(error?.name ?? "Error"), ...code, message } };
}

/**
 * The record of the common completed call (a result written to an output path, no branch, error, reason,
 * `satisfiedBy` or description), in one literal with the fields in the order a stored record has them,
 * `callHash` undefined when the store fills it in later (`callHashOf`): a record the store may keep as it is
 * (`CallCommit.recordHandedOver`). Undefined for any other ending.
 */
export function storedOrderRecord(
  run: CallRun,
  ending: CallEnding,
  context: RecordContext,
): CallRecord | undefined {
  const call = run.call;
  const { startedAt, hash } = run;
  const params = run.shownParams ?? run.params;
  const outputPath = call.outputPath?.text;
  const result = ending.result;
  const status = ending.status;
  if (
    (status !== "succeeded" && status !== "satisfied") ||
    (hash === undefined && status !== "succeeded") ||
    ending.branch !== undefined ||
    startedAt === undefined ||
    params === undefined ||
    run.plannedParams !== undefined ||
    outputPath === undefined ||
    result === undefined ||
    ending.error !== undefined ||
    ending.reason !== undefined ||
    satisfiedByOf(ending) !== undefined ||
    call.description !== undefined
  )
    return undefined;
  // `callHash` undefined (filled in by the store) keeps its place in the key order
  return {
    threadId: asThreadId(context.threadId),
    runId: asRunId(context.runId),
    callId: asCallId(call.id),
    tool: call.tool,
    status,
    attempts: run.attempts,
    startedAt: isoTime(startedAt),
    endedAt: isoTime(context.endedAt),
    callHash: hash,
    params,
    outputPath,
    outputMethod: call.outputMethod,
    result,
    wrote: ending.wrote,
  } as CallRecord;
}

/**
 * The store record of a call (SPEC §8). `callHash` only for completed calls (succeeded, satisfied). Any
 * ending: a completion tries {@link storedOrderRecord} first (the same fields, a record the store may keep).
 */
export function buildCallRecord(run: CallRun, ending: CallEnding, context: RecordContext): CallRecord {
  const call = run.call;
  const threadId = asThreadId(context.threadId);
  const runId = asRunId(context.runId);
  const callId = asCallId(call.id);
  const endedAt = isoTime(context.endedAt);
  const completed = ending.status === "succeeded" || ending.status === "satisfied";
  const hash = completed ? run.hash : undefined;
  const startedAt = run.startedAt;
  const params = run.shownParams ?? run.params;
  let record: Mutable<CallRecord>;
  if (ending.branch === undefined && startedAt !== undefined && hash !== undefined && params !== undefined) {
    record = {
      threadId,
      runId,
      callId,
      tool: call.tool,
      status: ending.status,
      attempts: run.attempts,
      endedAt,
      outputMethod: call.outputMethod,
      wrote: ending.wrote,
      startedAt: isoTime(startedAt),
      callHash: hash,
      params,
    };
  } else {
    record = {
      threadId,
      runId,
      callId,
      tool: call.tool,
      status: ending.status,
      attempts: run.attempts,
      endedAt,
      outputMethod: call.outputMethod,
      wrote: ending.wrote,
    };
    if (ending.branch !== undefined) record.branch = ending.branch;
    if (startedAt !== undefined) record.startedAt = isoTime(startedAt);
    if (hash !== undefined) record.callHash = hash;
    if (params !== undefined) record.params = params;
  }
  if (call.outputPath !== undefined) record.outputPath = call.outputPath.text;
  if (ending.result !== undefined) record.result = ending.result;
  if (ending.error !== undefined) record.error = ending.error;
  if (ending.reason !== undefined) record.reason = ending.reason;
  const satisfiedBy = satisfiedByOf(ending);
  if (satisfiedBy !== undefined) record.satisfiedBy = asRunId(satisfiedBy);
  if (ending.status === "satisfied" && ending.outputId !== undefined)
    record.outputId = asCallId(ending.outputId);
  if (call.description !== undefined) record.description = call.description;
  if (run.plannedParams !== undefined) record.plannedParams = run.plannedParams;
  return record;
}

/** The run whose completed record satisfied the call: a `satisfied` ending's, else undefined. */
function satisfiedByOf(ending: CallEnding): string | undefined {
  return ending.status === "satisfied" ? ending.satisfiedBy : undefined;
}

/** The run result's report of a call. */
export function buildCallReport(run: CallRun, ending: CallEnding, endedAt: number): CallReport {
  // Built field by field in one key order; `branch`, `reason` and `error` are copied from the ending, whose
  // type already ties them to its status.
  const report = {
    callId: run.call.id,
    tool: run.call.tool,
    call: run.call.raw,
    status: ending.status,
    attempts: run.attempts,
    durationMs: run.startedAt === undefined ? 0 : Math.max(0, endedAt - run.startedAt),
    wrote: ending.wrote,
  } as Mutable<CallReport>;
  if (ending.branch !== undefined) report.branch = ending.branch;
  if (ending.reason !== undefined) report.reason = ending.reason;
  if (ending.error !== undefined) report.error = ending.error;
  const satisfiedBy = satisfiedByOf(ending);
  if (satisfiedBy !== undefined)
    (report as Mutable<CallReport & { satisfiedBy?: string }>).satisfiedBy = satisfiedBy;
  if (ending.status === "satisfied" && ending.outputId !== undefined)
    (report as Mutable<CallReport & { outputId?: string }>).outputId = ending.outputId;
  if (run.plannedParams !== undefined) report.modified = true;
  return report;
}
