import type { RetryPolicy, ToolContext } from "@obelisk/compiler";
import type { JsonObject } from "@obelisk/core";
import type { Awaitable, RecordedError } from "@obelisk/state";
import type { AroundTool } from "./around-tool.js";
import type { Timers } from "./timers.js";

/** How a call's attempts ended. */
export type InvokeOutcome =
  | { readonly kind: "returned"; readonly value: unknown; readonly attempts: number }
  /** `thrown`: what the tool threw (or the timeout's error), for the policy's `shouldRetry`. */
  | {
      readonly kind: "threw";
      readonly error: RecordedError;
      readonly attempts: number;
      readonly thrown: unknown;
    }
  /** The value returned cannot even be inspected (not retried, not routed): the call fails. */
  | { readonly kind: "invalid"; readonly error: RecordedError; readonly attempts: number }
  | { readonly kind: "cancelled"; readonly attempts: number };

/** What `invokeTool` needs. */
export interface InvokeRequest {
  /** The implementation. */
  readonly run: (args: JsonObject, ctx: ToolContext) => unknown;
  /** Resolved, frozen arguments. */
  readonly args: JsonObject;
  /** Ids for the tool context. */
  readonly callId: string;
  readonly runId: string;
  readonly threadId: string;
  /** The tool's name (for `around`). */
  readonly toolName: string;
  /** The host's wrapper of each attempt, if any. */
  readonly around: AroundTool | undefined;
  /** Retry policy (thrown errors and timeouts are retried). */
  readonly policy: RetryPolicy;
  /** Per-attempt timeout, if any. */
  readonly timeoutMs: number | undefined;
  /** The run's signal (cancellation and failFast). */
  readonly signal: AbortSignal;
  /**
   * True once the run is aborted (the same as `signal.aborted`, which is read when this is left out). A
   * runner passes a flag of its own: every Node 20 AbortSignal has a hidden class of its own, so reading
   * `signal.aborted` on every call threw away the optimized dispatch code at each run's first call.
   */
  readonly aborted?: boolean;
  /** Timers, the clock (ms; read only for an attempt with a timeout) and randomness. */
  readonly timers: Timers;
  readonly now: () => number;
  readonly random: () => number;
  /** Called before each attempt (1-based). */
  readonly onAttempt: (attempt: number) => void;
  /** Called before waiting for a retry. */
  readonly onRetry: (attempt: number, delayMs: number, error: RecordedError) => void;
}

/** A request that settles its call itself: the runner's way (see {@link invokeToolThen}). */
export interface SettlingRequest extends InvokeRequest {
  /** Takes how the attempts ended; what it returns (or throws) is the invocation's. */
  settle(outcome: InvokeOutcome): Awaitable<void>;
}

export type AttemptResult = InvokeOutcome | Promise<InvokeOutcome>;

/** Whether the request's run is aborted: its own flag, else its signal's. */
export function isAborted(request: InvokeRequest): boolean {
  return request.aborted ?? request.signal.aborted;
}
