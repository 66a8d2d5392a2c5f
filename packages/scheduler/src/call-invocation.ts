import type { RegisteredTool, RetryPolicy } from "@obelisk/compiler";
import type { JsonObject } from "@obelisk/core";
import type { RecordedError } from "@obelisk/state";
import type { InvokeRequest } from "./invoke-tool.js";
import type { CallRun } from "./runner-types.js";
import type { Timers } from "./timers.js";

/** What an invocation needs from its runner (shared by every call of the run). */
export interface InvocationHost {
  readonly runId: string;
  readonly threadId: string;
  /** The run's signal (cancellation and failFast). */
  readonly signal: AbortSignal;
  readonly timers: Timers;
  readonly random: () => number;
  /** An attempt starts (bookkeeping and the `call-start` event). */
  attemptStarted(run: CallRun, attempt: number): void;
  /** A retry is scheduled (the `call-retry` event). */
  retrying(run: CallRun, attempt: number, delayMs: number, error: RecordedError): void;
}

/**
 * One call's invoke request: a class (methods on the prototype) rather than an object literal with
 * closures, so the hot path allocates one small object per call.
 */
export class CallInvocation implements InvokeRequest {
  readonly run: InvokeRequest["run"];
  readonly args: JsonObject;
  readonly callId: string;
  readonly runId: string;
  readonly threadId: string;
  readonly timeoutMs: number | undefined;
  readonly signal: AbortSignal;
  readonly timers: Timers;
  readonly random: () => number;

  constructor(
    private readonly host: InvocationHost,
    private readonly callRun: CallRun,
    tool: RegisteredTool,
    readonly policy: RetryPolicy,
  ) {
    const call = callRun.call;
    this.run = tool.run as InvokeRequest["run"];
    this.args = callRun.params ?? {};
    this.callId = call.id;
    this.runId = host.runId;
    this.threadId = host.threadId;
    this.timeoutMs = call.timeoutMs ?? tool.timeoutMs;
    this.signal = host.signal;
    this.timers = host.timers;
    this.random = host.random;
  }

  /** Called before each attempt (1-based). */
  onAttempt(attempt: number): void {
    this.host.attemptStarted(this.callRun, attempt);
  }

  /** Called before waiting for a retry. */
  onRetry(attempt: number, delayMs: number, error: RecordedError): void {
    this.host.retrying(this.callRun, attempt, delayMs, error);
  }
}
