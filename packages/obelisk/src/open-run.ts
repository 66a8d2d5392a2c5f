import { createIncrementalCompiler } from "@obelisk/compiler";
import {
  appendPointer,
  asThreadId,
  type Diagnostic,
  type JsonObject,
  type JsonValue,
  ObeliskError,
  type RunId,
  toJsonValue,
} from "@obelisk/core";
import { EventChannel, holdRunEnd, PlanRunner, type RunEvent } from "@obelisk/scheduler";
import type { RunLease } from "./active-runs.js";
import { StreamCallNumbers } from "./auto-id-numbers.js";
import { busyDuringRun } from "./busy-during-run.js";
import { CallRecorder } from "./call-recorder.js";
import type { EngineRuntime } from "./engine-runtime.js";
import type { AddResult, OpenOptions, RunResult, StreamingRun } from "./engine-types.js";
import { type IdleTimer, startIdleTimer } from "./idle-timer.js";
import { releaseAfter } from "./lock-release.js";
import { planInvalidError } from "./plan-invalid-error.js";
import {
  endingOptions,
  endingStatus,
  failedRunOptions,
  recordRun,
  requestTime,
  storedPlanHash,
} from "./record-run.js";
import { runnerRerun } from "./rerun-option.js";
import { type StreamOwnCalls, streamOwnCalls } from "./stream-own-calls.js";
import { type StreamStop, stoppedStreamError } from "./stream-stop.js";
import { asThrownError } from "./thrown-message.js";
import { toRunResult } from "./to-run-result.js";

/**
 * Opens a streaming run: takes the thread lock, checks the input, opens the thread, records the run, and
 * returns `add` / `close`. Each added call is compiled incrementally (a call closing a cycle is refused)
 * and dispatched as soon as it is ready. Automatic ids start at a number reserved at open; each accepted
 * call's number is reserved before the call is recorded, so a stream whose process dies leaves none of its
 * ids to a later run (decision 0099). A refused open (PLAN_INVALID input, THREAD_BUSY, a repeated run id)
 * creates no thread, gives none the engine's schema and takes no number.
 */
export async function openRun(runtime: EngineRuntime, options: OpenOptions): Promise<StreamingRun> {
  refuseApprovedHash(options);
  const requestedAt = requestTime(runtime.now);
  // The run holds a lease on the engine until it is closed: `engine.close()` aborts and closes it first.
  const lease = runtime.active.lease(options.signal);
  try {
    let endNow = (): void => {};
    const own = streamOwnCalls(runtime.options.aroundTool);
    const stream = await leasedOpen(runtime, options, lease, () => endNow(), requestedAt, own);
    let closed: Promise<RunResult> | undefined;
    const close = (): Promise<RunResult> => {
      closed ??= stream.close().finally(() => lease.release());
      return own.isInside() ? closedFromInside(closed, stream.runId) : closed;
    };
    lease.closer = close;
    // An aborted stream (its signal, engine.close()) or one failFast stopped ends at once, as an aborted run
    // does: its record ends and the thread is released without waiting for the host's `close()`, which then
    // answers the same result.
    endNow = (): void => void close().catch(() => undefined);
    if (lease.signal.aborted) endNow();
    else lease.signal.addEventListener("abort", endNow, { once: true });
    return { ...stream, close };
  } catch (error) {
    lease.release();
    throw asThrownError(error);
  }
}

/**
 * `close()` called from inside one of the stream's own calls: the stream stops taking calls and closes once
 * its calls end, as `close()` from outside would, but this caller gets USAGE at once instead of the result —
 * awaiting it there would wait for the call it is made from (a deadlock that held the thread). Both
 * promises are observed, so a `void close()` from a tool leaves no unhandled rejection.
 */
function closedFromInside(closing: Promise<RunResult>, runId: string): Promise<RunResult> {
  closing.catch(() => undefined);
  const refused = Promise.reject(
    new ObeliskError(
      "USAGE",
      "close() was called from inside one of this stream's own calls: the stream takes no more calls and closes when its calls end, but awaiting that here would wait for this call itself",
      {
        hint: "do not await close() in a tool of the stream: let the host close it (its close() answers the run's result), or call it without await",
        data: { runId },
      },
    ),
  );
  refused.catch(() => undefined);
  return refused;
}

/**
 * A stream cannot be approved in advance: its plan (and so its hash) exists only once it is closed, and a
 * call runs as soon as it is added. `OpenOptions` leaves `approvedHash` out; an untyped caller passing one
 * gets USAGE (before anything is locked or recorded) instead of an approval that is never checked.
 */
function refuseApprovedHash(options: OpenOptions): void {
  if ((options as { readonly approvedHash?: unknown }).approvedHash === undefined) return;
  throw new ObeliskError(
    "USAGE",
    "open does not take approvedHash: a streamed plan cannot be approved in advance",
    {
      hint: "validate the complete plan, have its planHash approved, then run it with run(plan, { approvedHash })",
    },
  );
}

async function leasedOpen(
  runtime: EngineRuntime,
  options: OpenOptions,
  lease: RunLease,
  endNow: () => void,
  requestedAt: number | undefined,
  own: StreamOwnCalls,
): Promise<StreamingRun> {
  const signal = lease.signal;
  const threadId = asThreadId(options.threadId ?? "default");
  const engine = runtime.options;
  const { input, extraKinds } = runtime.runValues(options);
  const store = runtime.store;
  const lock = await store.lockThread(threadId, { waitMs: engine.lockWaitMs ?? 0, signal });
  const channel = new EventChannel();
  let created: RunId | undefined;
  let idle: IdleTimer | undefined;
  try {
    const context = await runtime.threadContext(threadId, await store.getThread(threadId), input, extraKinds);
    const inputSchema = options.inputSchema ?? input.schema;
    const inputDiagnostics = runtime.checkInput(input, options.inputSchema, "option");
    if (inputDiagnostics.length > 0) {
      // no call came yet, so there is no plan to hash: "sha256:" is "no plan yet", as the stream's run-start says
      const data = { ok: false, planHash: "sha256:", diagnostics: inputDiagnostics } as const;
      throw planInvalidError(inputDiagnostics, data, "the input breaks its schema");
    }
    const runId = await runtime.newRunId();
    // Opened (created, with the engine's state schema) only once the stream is accepted, as a run's thread.
    await store.openThread(
      threadId,
      engine.stateSchema === undefined ? undefined : { stateSchema: engine.stateSchema },
    );
    const firstAutoIdNumber = await store.reserveCallNumbers(threadId, 1);
    const compiler = createIncrementalCompiler(runtime.registry, {
      context,
      kinds: runtime.kinds,
      firstAutoIdNumber,
      ...(engine.limits === undefined ? {} : { limits: engine.limits }),
      ...(inputSchema === undefined ? {} : { inputSchema }),
    });
    // the plan document the record keeps (calls appended as they are accepted): what `resume` re-runs
    const planOf = (calls: JsonValue[]): JsonObject => ({
      type: "plan",
      plan: calls,
      ...(options.inputSchema === undefined ? {} : { inputSchema: options.inputSchema as JsonObject }),
    });
    const emptyPlan = planOf([]);
    await recordRun(store, {
      runId,
      threadId,
      planHash: "sha256:",
      plan: emptyPlan,
      input: input.given,
      firstAutoIdNumber,
      streamed: true,
      status: "running",
      startedAt: runtime.iso(),
    });
    created = runId;
    const failFast = options.failFast ?? engine.failFast ?? false;
    // failFast stops the stream at the first failed call (the runner aborts itself right after this event)
    let failed: StreamStop | undefined;
    const watchFailure = (event: RunEvent): void => {
      if (event.type !== "call-end" || event.status !== "failed") return;
      if (failed !== undefined || signal.aborted) return;
      failed = { by: "failFast", callId: event.callId };
      queueMicrotask(endNow);
    };
    const hub = runtime.hub([options.onEvent, channel.push, failFast ? watchFailure : undefined]);
    // run-end waits for the run's record to be finished and the thread released (see run-plan.ts)
    const held = holdRunEnd(hub);
    // an abandoned stream closes itself, as close() would, once no call came for idleTimeoutMs; its calls
    // still running idleTimeoutMs after that get the abort (decision 0064)
    const idleTimer = startIdleTimer(options.idleTimeoutMs, endNow, engine.timers);
    idle = idleTimer;
    const runner = new PlanRunner({
      registry: runtime.registry,
      store,
      threadId,
      runId,
      planHash: "sha256:",
      input: input.input,
      state: context.state as JsonObject,
      ...(extraKinds === undefined ? {} : { extraKinds }),
      limiter: runtime.limiter,
      failFast,
      ...runnerRerun(options.rerun),
      ...(engine.confirm === undefined ? {} : { confirm: engine.confirm }),
      // the engine's aroundTool (if any) inside the one that tells close() it is called from a call
      aroundTool: own.aroundTool,
      signal: idleTimer.abandoned === undefined ? signal : AbortSignal.any([signal, idleTimer.abandoned]),
      ...(engine.timers === undefined ? {} : { timers: engine.timers }),
      now: runtime.now,
      ...(requestedAt === undefined ? {} : { requestedAt }),
      ...(engine.random === undefined ? {} : { random: engine.random }),
      ...(engine.limits?.maxValueBytes === undefined ? {} : { maxValueBytes: engine.limits.maxValueBytes }),
      events: held.events,
      streaming: true,
    });
    let closing: Promise<RunResult> | undefined;
    // the calls accepted, as JSON copies: the run record ends with them, so `resume` can re-run them
    const accepted: JsonValue[] = [];
    const numbers = new StreamCallNumbers(store, threadId, firstAutoIdNumber);
    const recorder = new CallRecorder(
      store,
      runId,
      (call) => runner.add([call]),
      (call) => numbers.reserveFor(call),
    );
    // the calls given to the compiler (each takes a place `/plan/<n>` in its plan, refused or not)
    let slots = 0;
    const add = (call: unknown): AddResult => {
      // what stopped it first: an idle close is not renamed by an engine.close() that came after it
      const stop: StreamStop | undefined =
        failed ??
        (idleTimer.fired
          ? { by: "idle", idleTimeoutMs: options.idleTimeoutMs as number }
          : lease.stoppedBy !== undefined
            ? { by: lease.stoppedBy }
            : closing === undefined
              ? undefined
              : { by: "close" });
      if (stop !== undefined) throw stoppedStreamError(stop, runId);
      idleTimer.touch();
      // a call reading a scoped host kind where it may not is refused before the compiler takes it
      // (decision 0073), at the place in the plan it would have taken
      const scoped = runtime.kindScope?.streamedCall(call, appendPointer("/plan", slots));
      if (scoped !== undefined && scoped.forbidden.length > 0)
        return { ok: false, diagnostics: scoped.forbidden };
      slots++;
      const sent = scoped === undefined ? call : scoped.call;
      const result = compiler.addCall(sent);
      if (result.ok && result.call !== undefined) {
        const copy = toJsonValue(sent);
        recorder.record(copy.ok ? copy.value : undefined, result.call);
        if (copy.ok) accepted.push(copy.value);
        return { ok: true, callId: result.call.id, diagnostics: result.diagnostics };
      }
      return { ok: false, diagnostics: result.diagnostics };
    };
    const close = (): Promise<RunResult> => {
      idleTimer.stop();
      closing ??= (async () => {
        let failure: { readonly error: unknown } | undefined;
        let runnerClosed = false;
        let finished = false;
        try {
          await recorder.settled();
          // every accepted call's automatic id number was reserved before it was recorded
          const compiled = compiler.close();
          runnerClosed = true;
          const execution = await runner.close(unresolvedHints(compiled.diagnostics));
          idleTimer.end();
          // the hash of what ran (the accepted calls): calls `add` refused are not part of it
          const plan = planOf(accepted);
          const hash = storedPlanHash(plan) ?? compiled.planHash;
          const status = endingStatus(execution.status, lease);
          await store.finishRun(
            runId,
            status,
            runtime.endedAt(),
            { plan, planHash: hash },
            endingOptions(status),
          );
          finished = true;
          const state = await runtime.afterRun(threadId);
          return toRunResult(runId, threadId, hash, execution, state);
        } catch (error) {
          // Calls still in flight settle before the lock goes; the run record never stays "running".
          if (!runnerClosed) await runner.close().catch(() => undefined);
          if (!finished) await finishFailed(runtime, runId, error);
          failure = { error };
          throw busyDuringRun(asThrownError(error), runId);
        } finally {
          idleTimer.end();
          try {
            // the stream's own error is what is thrown: a release that fails too is a warning (decision 0092)
            if (failure === undefined) await lock.release();
            else await releaseAfter(lock, failure.error);
          } finally {
            held.release();
          }
        }
      })();
      return closing;
    };
    return { runId, add, close, events: channel };
  } catch (error) {
    idle?.end();
    if (created !== undefined) await finishFailed(runtime, created, error);
    await releaseAfter(lock, error);
    throw error;
  }
}

/** Marks a run `failed` after an error that ended it (best effort: the error that ended it is what is thrown). */
async function finishFailed(runtime: EngineRuntime, runId: RunId, error: unknown): Promise<void> {
  try {
    await runtime.store.finishRun(runId, "failed", runtime.endedAt(), undefined, failedRunOptions(error));
  } catch {
    // the store is failing too: its error would hide the one that ended the run
  }
}

/**
 * The hints of the REF_UNRESOLVED diagnostics closing the stream gave, by call id (one call's hints joined):
 * its failed calls' errors carry them, as `validate` would have shown them for a batch plan.
 */
function unresolvedHints(diagnostics: readonly Diagnostic[]): ReadonlyMap<string, string> {
  const hints = new Map<string, string>();
  for (const { code, callId, hint } of diagnostics) {
    if (code !== "REF_UNRESOLVED" || callId === undefined || hint === undefined) continue;
    const known = hints.get(callId);
    hints.set(callId, known === undefined ? hint : `${known}; ${hint}`);
  }
  return hints;
}
