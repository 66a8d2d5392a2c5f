import { MAX_TIMER_MS } from "@obelisk/core";
import { AttemptContext } from "./attempt-context.js";
import { returned, threw, timedOut, unreadable } from "./attempt-outcome.js";
import { type InvokeOutcome, type InvokeRequest, isAborted } from "./invoke-request.js";
import { onRunAbort } from "./on-run-abort.js";
import { runAround } from "./run-around.js";
import { observe, thenOf } from "./then-of.js";

/**
 * Runs one attempt and hands its outcome to `next`: synchronously when the tool is synchronous; otherwise
 * `next` runs in the tool's own promise reaction, and the returned promise follows what `next` returns (or
 * rejects with what it throws). No promise of the bare outcome stands in between: each such promise was
 * one more microtask hop (and allocation) between a tool's result and its dependents.
 * An abort or a timeout ends the attempt from outside the tool's reaction: `next` then runs two hops
 * later, as it did when the outcome went through `invokeTool`'s promise and the runner's `then`. A result
 * that arrives once the timeout has passed (see `late`) is discarded: the attempt times out then instead.
 */
export function attempt<R, Q extends InvokeRequest>(
  request: Q,
  number: number,
  next: (outcome: InvokeOutcome, request: Q) => R | Promise<R>,
): R | Promise<R> {
  const { signal } = request;
  // A timeout longer than a timer can hold (a tool's `timeoutMs`; `_timeoutMs` is refused) means no timer (B11).
  const timeoutMs = (request.timeoutMs ?? Infinity) <= MAX_TIMER_MS ? request.timeoutMs : undefined;
  const controller = timeoutMs === undefined ? undefined : new AbortController();
  const ctx = new AttemptContext(request, number, controller?.signal ?? signal);
  // Only an attempt with a timeout reads the clock: at its start and when its result arrives (see `late`).
  const startedAt = timeoutMs === undefined ? 0 : request.now();
  let result: unknown;
  try {
    const around = request.around;
    result = around === undefined ? request.run(request.args, ctx) : runAround(around, request, ctx, number);
  } catch (error) {
    if (late(request, timeoutMs, startedAt)) return next(timedOut(controller, timeoutMs, number), request);
    return next(threw(error, number), request);
  }
  if (late(request, timeoutMs, startedAt)) {
    observe(result);
    return next(timedOut(controller, timeoutMs, number), request);
  }
  const then = thenOf(result);
  if (then === null) return next(unreadable(number), request);
  if (then === undefined) return next(returned(ctx, result, number), request);
  return new Promise<R>((resolve, reject) => {
    let done = false;
    let timer: unknown;
    // ends the attempt once; a `clearTimeout` that throws rejects it (the runner's error: a bad injection)
    const end = (): boolean => {
      if (done) return false;
      done = true;
      handlers.delete(onAbort);
      if (timer === undefined) return true;
      try {
        request.timers.clearTimeout(timer);
        return true;
      } catch (error) {
        reject(error);
        return false;
      }
    };
    // the tool's own reaction: `next` at once, unless the result came after the timeout (see `late`)
    const finish = (outcome: InvokeOutcome): void => {
      if (done) return;
      try {
        if (late(request, timeoutMs, startedAt)) timeOut();
        else if (end()) resolve(next(outcome, request));
      } catch (error) {
        end();
        reject(error);
      }
    };
    // an abort or a timeout: `next` two hops later (see above), after the caller that ended it is done
    const finishLater = (outcome: InvokeOutcome): void => {
      if (end())
        resolve(
          Promise.resolve(outcome)
            .then(passOutcome)
            .then((settled) => next(settled, request)),
        );
    };
    const onAbort = (): void => {
      controller?.abort(signal.reason);
      finishLater({ kind: "cancelled", attempts: number });
    };
    const timeOut = (): void => {
      if (!done) finishLater(timedOut(controller, timeoutMs, number));
    };
    const handlers = onRunAbort(signal, onAbort);
    // aborted while the tool's synchronous part ran: no abort event is coming (and no timer is wanted)
    if (isAborted(request)) onAbort();
    if (!done && timeoutMs !== undefined) {
      try {
        timer = request.timers.setTimeout(timeOut, timeoutMs);
      } catch (error) {
        // a `setTimeout` that throws: the attempt rejects with its error (the tool's answer is still observed)
        done = true;
        handlers.delete(onAbort);
        reject(error);
      }
    }
    try {
      then.call(
        result,
        (value: unknown) => finish(returned(ctx, value, number)),
        (error: unknown) => finish(threw(error, number)),
      );
    } catch (error) {
      finish(threw(error, number));
    }
  });
}

/**
 * Whether an attempt with a timeout has used it up, by the request's clock: its result (value or error)
 * arrived `timeoutMs` or more after it started — the timer's rule (a timer of `timeoutMs` fires once that
 * much time has passed). A tool that holds the event loop (a synchronous loop, before or after an `await`)
 * keeps the timer from firing and its promise's reaction runs before the timer's callback: without this
 * check its late result was taken.
 */
function late(request: InvokeRequest, timeoutMs: number | undefined, startedAt: number): boolean {
  return timeoutMs !== undefined && request.now() - startedAt >= timeoutMs;
}

/** The identity on outcomes: `next` of an attempt whose outcome is wanted as it is. */
export function passOutcome(outcome: InvokeOutcome): InvokeOutcome {
  return outcome;
}
