import { MAX_TIMER_MS } from "@obelisk/core";
import { type AttemptResult, type InvokeOutcome, type InvokeRequest, isAborted } from "./invoke-request.js";
import {
  RETRY_AFTER_BACKOFF,
  type RetryVerdict,
  readRetryAnswer,
  refusedDelay,
  STOP,
} from "./retry-answer.js";
import { retryDelay } from "./retry-delay.js";
import { thenOf } from "./then-of.js";
import { attempt, passOutcome } from "./tool-attempt.js";

/**
 * Whether a failed attempt is tried again, and after which delay: attempts are left and the policy's
 * `shouldRetry` (if any) says yes — `true` or `{ retry: true, delayMs }` (see {@link readRetryAnswer}), or a
 * promise of one (an `async` predicate, given the run's signal). Anything else is no, and so is a
 * `shouldRetry` that throws or rejects, or one still pending when the run is aborted (a hung predicate must
 * not keep a cancelled run, and the thread, forever): the call fails with the tool's error.
 */
function mayRetry(request: InvokeRequest, outcome: InvokeOutcome): RetryVerdict | Promise<RetryVerdict> {
  const { policy, signal } = request;
  if (outcome.kind !== "threw" || outcome.attempts >= policy.attempts) return STOP;
  const shouldRetry = policy.shouldRetry;
  if (shouldRetry === undefined) return RETRY_AFTER_BACKOFF;
  try {
    const answer: unknown = shouldRetry(outcome.thrown, outcome.attempts, signal);
    const then = thenOf(answer);
    if (then === undefined) return readRetryAnswer(answer, policy.maxDelayMs);
    if (then === null || isAborted(request)) return STOP;
    return new Promise<RetryVerdict>((resolve) => {
      const onAbort = (): void => resolve(STOP);
      signal.addEventListener("abort", onAbort, { once: true });
      const answered = (verdict: RetryVerdict): void => {
        signal.removeEventListener("abort", onAbort);
        resolve(verdict);
      };
      try {
        then.call(
          answer,
          (value: unknown) => answered(readRetryAnswer(value, policy.maxDelayMs)),
          () => answered(STOP),
        );
      } catch {
        answered(STOP);
      }
    });
  } catch {
    return STOP;
  }
}

/** A failed attempt's outcome once its policy does not retry it: as it is, or `USAGE` for a refused delay. */
function notRetried(
  request: InvokeRequest,
  failed: InvokeOutcome & { kind: "threw" },
  verdict: RetryVerdict,
): InvokeOutcome {
  if (verdict.kind !== "refused") return failed;
  const error = refusedDelay(request.toolName, verdict.delayMs, failed.error, failed.attempts);
  return { kind: "invalid", error, attempts: failed.attempts };
}

/** Goes on after a failed attempt by its verdict: retries it, or ends with it. */
function goOn(
  request: InvokeRequest,
  failed: InvokeOutcome & { kind: "threw" },
  verdict: RetryVerdict,
): AttemptResult {
  return verdict.kind === "retry"
    ? retryAfter(request, failed, verdict.delayMs)
    : notRetried(request, failed, verdict);
}

/** Waits `ms` on the injected timers; resolves false when the run is aborted first. */
function wait(request: InvokeRequest, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const { signal, timers } = request;
    if (isAborted(request)) return resolve(false);
    const onAbort = (): void => {
      resolve(false);
      try {
        timers.clearTimeout(handle);
      } catch {
        // the run is over: a timer left armed only resolves a settled promise
      }
    };
    const handle = timers.setTimeout(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve(true);
      },
      Math.min(ms, MAX_TIMER_MS),
    ); // a longer delay would fire after 1 ms (B11)
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Continues after a failed attempt the policy retries: retry after its delay (`askedMs`, the one its
 * `shouldRetry` asked for, else the policy's backoff for that retry) until one may not be.
 */
async function retryAfter(
  request: InvokeRequest,
  retried: InvokeOutcome & { kind: "threw" },
  askedMs: number | undefined,
): Promise<InvokeOutcome> {
  let failed = retried;
  let asked = askedMs;
  for (;;) {
    const delayMs = asked ?? retryDelay(request.policy, failed.attempts, request.random);
    request.onRetry(failed.attempts + 1, delayMs, failed.error);
    if (!(await wait(request, delayMs))) return { kind: "cancelled", attempts: failed.attempts };
    request.onAttempt(failed.attempts + 1);
    const outcome = await attempt<InvokeOutcome, InvokeRequest>(request, failed.attempts + 1, passOutcome);
    if (outcome.kind !== "threw") return outcome;
    const verdict = await mayRetry(request, outcome);
    if (verdict.kind !== "retry") return notRetried(request, outcome, verdict);
    failed = outcome;
    asked = verdict.delayMs;
  }
}

/** After the first attempt: retries a thrown error while the policy allows, else the outcome as it is. */
export function afterFirst(request: InvokeRequest, outcome: InvokeOutcome): AttemptResult {
  if (outcome.kind !== "threw") return outcome;
  const verdict = mayRetry(request, outcome);
  if (verdict instanceof Promise) return verdict.then((answered) => goOn(request, outcome, answered));
  return goOn(request, outcome, verdict);
}
