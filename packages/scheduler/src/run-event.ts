import type { JsonObject, PlanHash } from "@obelisk/core";
import type { CallStatus, RecordedError } from "@obelisk/state";
import type { CallReport } from "./runner-types.js";

/** Fields every event carries. */
interface EventBase {
  /** The run. */
  readonly runId: string;
  /** Milliseconds since the epoch (from the injected clock). */
  readonly at: number;
}

/** Fields of call events. */
interface CallEventBase extends EventBase {
  /** Call id. */
  readonly callId: string;
  /** Tool name. */
  readonly tool: string;
}

/** Events emitted while a run executes (STYLE §10). Observers cannot break a run. */
export type RunEvent =
  /** The run started. */
  | (EventBase & {
      readonly type: "run-start";
      readonly threadId: string;
      readonly planHash: PlanHash;
      readonly calls: number;
    })
  /** A call's references are decided and satisfied: it will be resolved, checked and dispatched. */
  | (CallEventBase & { readonly type: "call-ready" })
  /** An attempt of a call starts (params are the resolved, frozen arguments). */
  | (CallEventBase & { readonly type: "call-start"; readonly attempt: number; readonly params: JsonObject })
  /** An attempt failed and will be retried after `delayMs`. */
  | (CallEventBase & {
      readonly type: "call-retry";
      readonly attempt: number;
      readonly delayMs: number;
      readonly error: RecordedError;
    })
  /** A call reached its final status (committed to the store). */
  | (CallEventBase & {
      readonly type: "call-end";
      readonly status: CallStatus;
      readonly attempts: number;
      readonly durationMs: number;
      readonly branch?: number;
      readonly reason?: string;
      readonly error?: RecordedError;
    })
  /** A state path was written (after the commit). */
  | (CallEventBase & { readonly type: "state-write"; readonly reference: string; readonly method: string })
  /** An observer threw; the run goes on. */
  | (EventBase & {
      readonly type: "observer-error";
      readonly eventType: string;
      readonly error: RecordedError;
    })
  /** The run ended. */
  | (EventBase & {
      readonly type: "run-end";
      readonly status: "succeeded" | "failed" | "cancelled";
      readonly durationMs: number;
    });

/** The event types, for exhaustive handling. */
export type RunEventType = RunEvent["type"];

/**
 * An observer of run events. It may be `async`: the promise it returns is not awaited (events stay in
 * order); a rejection is reported as an `observer-error` event to the other observers, never fatal.
 */
export type RunObserver = (event: RunEvent) => void;

/** The `call-end` event of a call's report (without `runId` and `at`, which the runner adds). */
export function callEndEvent(
  report: CallReport,
): Omit<Extract<RunEvent, { type: "call-end" }>, "runId" | "at"> {
  const { callId, tool, status, attempts, durationMs, branch, reason, error } = report;
  return {
    type: "call-end",
    callId,
    tool,
    status,
    attempts,
    durationMs,
    ...(branch === undefined ? {} : { branch }),
    ...(reason === undefined ? {} : { reason }),
    ...(error === undefined ? {} : { error }),
  };
}
