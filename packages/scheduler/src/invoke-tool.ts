import type { Awaitable } from "@obelisk/state";
import { after } from "./awaitable.js";
import {
  type AttemptResult,
  type InvokeOutcome,
  type InvokeRequest,
  isAborted,
  type SettlingRequest,
} from "./invoke-request.js";
import { afterFirst } from "./retry-after.js";
import { attempt } from "./tool-attempt.js";

export type { InvokeOutcome, InvokeRequest, SettlingRequest } from "./invoke-request.js";

/**
 * Invokes a tool with a per-attempt AbortSignal, timeout (`TIMEOUT`) and retries with backoff
 * (thrown errors and timeouts only, as far as the policy's `shouldRetry` agrees). Synchronous tools without a timeout complete synchronously.
 */
export function invokeTool(request: InvokeRequest): AttemptResult {
  if (isAborted(request)) return { kind: "cancelled", attempts: 0 };
  request.onAttempt(1);
  return attempt<InvokeOutcome, InvokeRequest>(request, 1, nextAfterFirst);
}

/**
 * {@link invokeTool}, handing the final outcome to the request's `settle`: the runner's way. An attempt
 * that does not throw is settled in the tool's own promise reaction (one hop after the tool's promise
 * resolves, three before); a thrown error goes through the retry policy first. Returns what `settle`
 * returns, or a promise of it (rejected with what `settle` throws). No closure per call: the request is
 * handed along with each outcome.
 */
export function invokeToolThen(request: SettlingRequest): Awaitable<void> {
  if (isAborted(request)) return request.settle({ kind: "cancelled", attempts: 0 });
  request.onAttempt(1);
  return attempt<void, SettlingRequest>(request, 1, settleFirst);
}

/** The first attempt's outcome, settled at once unless it threw (then after the retry policy). */
function settleFirst(outcome: InvokeOutcome, request: SettlingRequest): Awaitable<void> {
  if (outcome.kind !== "threw") return request.settle(outcome);
  return after(afterFirst(request, outcome), (final) => request.settle(final));
}

/** {@link afterFirst} as an attempt's `next`. */
function nextAfterFirst(outcome: InvokeOutcome, request: InvokeRequest): AttemptResult {
  return afterFirst(request, outcome);
}
