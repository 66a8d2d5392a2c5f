import {
  type BranchResult,
  branch,
  isBranchResult,
  type RetryPolicy,
  type ToolContext,
} from "@obelisk/compiler";
import { asCallId, asRunId, asThreadId, type JsonObject, MAX_TIMER_MS } from "@obelisk/core";
import type { Awaitable, RecordedError } from "@obelisk/state";
import type { AroundTool } from "./around-tool.js";
import { after } from "./awaitable.js";
import { contentDigest } from "./call-hash.js";
import { toRecordedError } from "./event-hub.js";
import {
  RETRY_AFTER_BACKOFF,
  type RetryVerdict,
  readRetryAnswer,
  refusedDelay,
  STOP,
} from "./retry-answer.js";
import { retryDelay } from "./retry-delay.js";
import { withThrownStack } from "./thrown-stack.js";
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

type AttemptResult = InvokeOutcome | Promise<InvokeOutcome>;

/** Whether the request's run is aborted: its own flag, else its signal's. */
function isAborted(request: InvokeRequest): boolean {
  return request.aborted ?? request.signal.aborted;
}

/**
 * The abort handlers of the in-flight attempts, by run signal: one listener per run instead of an
 * EventTarget add/remove pair per attempt (~6 µs of every call after a wake-up). Handlers run in the
 * order their attempts started, as listeners would.
 */
const inFlight = new WeakMap<AbortSignal, Set<() => void>>();

/** Registers `handler` for the run's abort; the returned set is where to delete it when the attempt ends. */
function onRunAbort(signal: AbortSignal, handler: () => void): Set<() => void> {
  let handlers = inFlight.get(signal);
  if (handlers === undefined) {
    const registered = new Set<() => void>();
    handlers = registered;
    inFlight.set(signal, registered);
    signal.addEventListener(
      "abort",
      () => {
        const now = [...registered];
        registered.clear();
        for (const run of now) run();
      },
      { once: true },
    );
  }
  handlers.add(handler);
  return handlers;
}

/** The `then` of a returned value; `null` when reading it throws (a hostile value, bug B5). */
function thenOf(value: unknown): ((...args: unknown[]) => unknown) | undefined | null {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return undefined;
  try {
    const then = (value as { then?: unknown }).then;
    return typeof then === "function" ? (then as (...args: unknown[]) => unknown) : undefined;
  } catch {
    return null;
  }
}

const unreadable = (attempts: number): InvokeOutcome => ({
  kind: "invalid",
  error: {
    name: "ObeliskError",
    code: "OUTPUT_NOT_JSON",
    message: "the tool returned a value that cannot be inspected (reading it threw)",
  },
  attempts,
});

/**
 * What an attempt returned, with a choice the tool made by calling `ctx.branch(k, value)` without returning
 * it (SPEC §3: "the implementation may pick another with `ctx.branch`"): nothing returned takes the choice;
 * a branch result returned wins; any other value beside a choice is BRANCH_INVALID (which one was meant?).
 */
function returned(ctx: AttemptContext, value: unknown, attempts: number): InvokeOutcome {
  const chosen = ctx.chosen;
  if (chosen === undefined || isBranchResult(value)) return { kind: "returned", value, attempts };
  if (value === undefined) return { kind: "returned", value: chosen, attempts };
  return {
    kind: "invalid",
    error: {
      name: "ObeliskError",
      code: "BRANCH_INVALID",
      message: `the tool called ctx.branch(${JSON.stringify(chosen.alternative)}, …) but returned another value: return ctx.branch(…)'s result, or nothing`,
    },
    attempts,
  };
}

/** The outcome of an attempt that threw `error`. */
function threw(error: unknown, attempts: number): InvokeOutcome {
  const recorded = withThrownStack(toRecordedError(error, "TOOL_ERROR"), error);
  return { kind: "threw", error: recorded, attempts, thrown: error };
}

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

/**
 * `<threadId>:<callId>:<16 hex digits of the tool and the arguments it gets>`: the same for every attempt
 * and resume of one call, different when a later plan reuses the call id with other arguments (ids an LLM
 * chose, such as "pay", repeat across a thread's runs: `idempotencyKey` alone then repeats for a different
 * charge). Not the output path: where a result is written does not make the side effect another one.
 */
function contentKey(request: InvokeRequest): string {
  return `${request.threadId}:${request.callId}:${contentDigest(request.toolName, request.args)}`;
}

/**
 * The context a tool attempt gets: a class, so `contentKey` is a getter on the prototype — computed when
 * read (most tools never do, and the digest walks the arguments) without an object literal with an
 * accessor, which V8 builds on its slow path (~0.6 µs per call).
 */
class AttemptContext implements ToolContext {
  readonly callId: ToolContext["callId"];
  readonly runId: ToolContext["runId"];
  readonly threadId: ToolContext["threadId"];
  readonly idempotencyKey: string;
  /** The last `ctx.branch()` choice of the attempt (see {@link returned}). */
  chosen: BranchResult | undefined;
  readonly #request: InvokeRequest;
  #contentKey: string | undefined;

  constructor(
    request: InvokeRequest,
    readonly attempt: number,
    readonly signal: AbortSignal,
  ) {
    this.#request = request;
    this.callId = asCallId(request.callId);
    this.runId = asRunId(request.runId);
    this.threadId = asThreadId(request.threadId);
    this.idempotencyKey = `${request.threadId}:${request.callId}`;
  }

  get contentKey(): string {
    this.#contentKey ??= contentKey(this.#request);
    return this.#contentKey;
  }

  branch(alternative: number | string, value: unknown): BranchResult {
    const result = branch(alternative, value);
    // `const { branch } = ctx` loses `this`: its result still works when returned
    if (this instanceof AttemptContext) this.chosen = result;
    return result;
  }
}

/**
 * Runs the tool inside the host's `aroundTool`. The tool's own result is the attempt's: the wrapper's
 * return is awaited (its teardown) but its value is not used, so a wrapper cannot stand in for the tool.
 * `invoke()` runs the tool once (a second call throws); a wrapper that returns without calling it fails the
 * attempt, and an `invoke()` after that throws too (the attempt is judged: the tool must not run unrecorded);
 * a rejection of the tool's promise is always observed (never an unhandled rejection).
 */
function runAround(around: AroundTool, request: InvokeRequest, ctx: ToolContext, attempt: number): unknown {
  let invoked = false;
  let judged = false;
  let value: unknown;
  const invoke = (): unknown => {
    if (invoked) throw new Error("aroundTool called invoke() twice in one attempt");
    if (judged)
      throw new Error(
        "aroundTool called invoke() after it had returned: the attempt already failed, and the tool does not run",
      );
    invoked = true;
    value = request.run(request.args, ctx);
    const then = thenOf(value);
    if (then) then.call(value, undefined, () => undefined);
    return value;
  };
  const info = {
    callId: request.callId,
    tool: request.toolName,
    runId: request.runId,
    threadId: request.threadId,
    attempt,
  };
  const returned = around(info, invoke);
  const done = (): unknown => {
    judged = true;
    if (!invoked) throw new Error("aroundTool returned without calling invoke(): the tool did not run");
    return value;
  };
  return thenOf(returned) ? Promise.resolve(returned).then(done) : done();
}

/**
 * Runs one attempt and hands its outcome to `next`: synchronously when the tool is synchronous; otherwise
 * `next` runs in the tool's own promise reaction, and the returned promise follows what `next` returns (or
 * rejects with what it throws). No promise of the bare outcome stands in between: each such promise was
 * one more microtask hop (and allocation) between a tool's result and its dependents.
 * An abort or a timeout ends the attempt from outside the tool's reaction: `next` then runs two hops
 * later, as it did when the outcome went through `invokeTool`'s promise and the runner's `then`. A result
 * that arrives once the timeout has passed (see `late`) is discarded: the attempt times out then instead.
 */
function attempt<R, Q extends InvokeRequest>(
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

/** Observes a rejection of `value` if it is a thenable whose answer is not wanted (never an unhandled rejection). */
function observe(value: unknown): void {
  const then = thenOf(value);
  if (!then) return;
  try {
    then.call(value, undefined, () => undefined);
  } catch {
    // a thenable whose `then` throws has no rejection to observe
  }
}

/** A `TIMEOUT` outcome: the attempt's signal is aborted with the timeout's error, which is the outcome's too. */
function timedOut(
  controller: AbortController | undefined,
  timeoutMs: number | undefined,
  attempts: number,
): InvokeOutcome {
  const error: RecordedError = {
    name: "TimeoutError",
    message: `timed out after ${timeoutMs} ms`,
    code: "TIMEOUT",
  };
  const thrown = Object.assign(new Error(error.message), { name: error.name, code: "TIMEOUT" });
  controller?.abort(thrown);
  return { kind: "threw", error, attempts, thrown };
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

/** The identity on outcomes: `next` of an attempt whose outcome is wanted as it is. */
function passOutcome(outcome: InvokeOutcome): InvokeOutcome {
  return outcome;
}

/** After the first attempt: retries a thrown error while the policy allows, else the outcome as it is. */
function afterFirst(request: InvokeRequest, outcome: InvokeOutcome): AttemptResult {
  if (outcome.kind !== "threw") return outcome;
  const verdict = mayRetry(request, outcome);
  if (verdict instanceof Promise) return verdict.then((answered) => goOn(request, outcome, answered));
  return goOn(request, outcome, verdict);
}
