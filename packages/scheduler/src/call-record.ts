import { asCallId, asRunId, asThreadId, type JsonValue } from "@obelisk/core";
import type { CallRecord, CallStatus, RecordedError } from "@obelisk/state";
import type { CallReport, CallRun } from "./runner-types.js";

/** The final facts of a call, from which its record and report are built. */
export interface CallEnding {
  /** Final status. */
  readonly status: CallStatus;
  /** Alternative written. */
  readonly branch?: number;
  /** Value written / stored (kept so a satisfied call can re-apply it). */
  readonly result?: JsonValue;
  /** References written. */
  readonly wrote: readonly string[];
  /** Error (failed, or routed to the failure branch). */
  readonly error?: RecordedError;
  /** Reason (blocked, waiting, rejected, deferred, cancelled). */
  readonly reason?: string;
}

/** Where and when a call ended. */
export interface RecordContext {
  readonly threadId: string;
  readonly runId: string;
  /** Clock time of the end. */
  readonly endedAt: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The store record of a call (SPEC §8). `callHash` only for completed calls (succeeded, satisfied). */
export function buildCallRecord(run: CallRun, ending: CallEnding, context: RecordContext): CallRecord {
  const call = run.call;
  const completed = ending.status === "succeeded" || ending.status === "satisfied";
  return {
    threadId: asThreadId(context.threadId),
    runId: asRunId(context.runId),
    callId: asCallId(call.id),
    tool: call.tool,
    status: ending.status,
    ...(ending.branch === undefined ? {} : { branch: ending.branch }),
    attempts: run.attempts,
    ...(run.startedAt === undefined ? {} : { startedAt: iso(run.startedAt) }),
    endedAt: iso(context.endedAt),
    ...(completed && run.hash !== undefined ? { callHash: run.hash } : {}),
    ...(run.params === undefined ? {} : { params: run.params }),
    ...(call.outputPath === undefined ? {} : { outputPath: call.outputPath.text }),
    outputMethod: call.outputMethod,
    ...(ending.result === undefined ? {} : { result: ending.result }),
    wrote: ending.wrote,
    ...(ending.error === undefined ? {} : { error: ending.error }),
    ...(ending.reason === undefined ? {} : { reason: ending.reason }),
    ...(call.description === undefined ? {} : { description: call.description }),
  };
}

/** The run result's report of a call. */
export function buildCallReport(run: CallRun, ending: CallEnding, endedAt: number): CallReport {
  return {
    callId: run.call.id,
    tool: run.call.tool,
    call: run.call.raw,
    status: ending.status,
    ...(ending.branch === undefined ? {} : { branch: ending.branch }),
    attempts: run.attempts,
    durationMs: run.startedAt === undefined ? 0 : Math.max(0, endedAt - run.startedAt),
    wrote: ending.wrote,
    ...(ending.reason === undefined ? {} : { reason: ending.reason }),
    ...(ending.error === undefined ? {} : { error: ending.error }),
  };
}
