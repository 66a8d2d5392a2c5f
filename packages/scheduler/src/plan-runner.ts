import { setMaxListeners } from "node:events";
import type { CompiledCall, RegisteredTool, RetryPolicy } from "@obelisk/compiler";
import {
  assertNever,
  asThreadId,
  DEFAULT_LIMITS,
  deepFreeze,
  type Mutable,
  ObeliskError,
} from "@obelisk/core";
import type { Awaitable, CallRecord, RecordedError } from "@obelisk/state";
import type { AroundTool } from "./around-tool.js";
import { isThenable } from "./awaitable.js";
import { type CommitHost, commitEnding, commitOne } from "./call-commit.js";
import type { InvocationHost } from "./call-invocation.js";
import { CallLimiter } from "./call-limiter.js";
import { buildCallReport, type CallEnding, type RecordContext } from "./call-record.js";
import { CallsById, preloadCallOutputs } from "./call-writers.js";
import { cancelReason } from "./cancel-reason.js";
import type { DecisionCore } from "./decision-core.js";
import type { CoreEffect, SettleInfo } from "./decision-types.js";
import { dispatchCall } from "./dispatch-call.js";
import type { DispatchHost } from "./dispatch-host.js";
import { type Culprit, culpritOf } from "./effect-culprit.js";
import { emitFatalEnd } from "./emit-fatal-end.js";
import { EventHub, toRecordedError } from "./event-hub.js";
import type { EventInput } from "./event-input.js";
import { FinishedExecution } from "./finished-execution.js";
import { groupCommit } from "./group-commit.js";
import type { InvokeOutcome } from "./invoke-tool.js";
import { failFastEarly, invokeLimited, type LimitedInvokeHost } from "./limited-invoke.js";
import { newCallRun } from "./new-call-run.js";
import { onInvoked } from "./on-invoked.js";
import type { OperandFilter } from "./resolve-params.js";
import { resolveRetryPolicy } from "./retry-delay.js";
import { runDecisionCore } from "./run-decision-core.js";
import { callEndEvent, type RunEvent } from "./run-event.js";
import { type RunnerSettings, runnerSettings } from "./runner-settings.js";
import type { CallRun, ExecutionResult, PendingResult, RunnerOptions } from "./runner-types.js";
import { SerialSteps } from "./serial-steps.js";
import { newReapplication, type Reapplication } from "./state-writes.js";
import { systemTimers, type Timers } from "./timers.js";
import { unsatisfiedEnding } from "./unsatisfied-ending.js";
import { WorkingContext } from "./working-context.js";

/** What the runner emits to once its `run-end` is out: nobody (every later event is dropped). */
const ENDED = new EventHub();

/** Effects performed before the runner yields to the event loop (see `drain`). */
const EFFECTS_PER_SLICE = 1024;

/**
 * The thin runner around the decision core: performs its effects (dispatch with limits, timeouts and
 * retries; commit through the store before dependents start; emit events) and reports back.
 * Batch: `add(all calls)` then `close()`. Streaming: `add` one call at a time, `close()` at the end.
 */
export class PlanRunner implements DispatchHost, LimitedInvokeHost, CommitHost {
  readonly context: WorkingContext;
  /** Resolves with the execution result once every call has settled. */
  readonly result: Promise<ExecutionResult>;
  private readonly core: DecisionCore;
  /** {@link DispatchHost.operands}: the decision core's answer. */
  readonly operands: OperandFilter;
  private readonly runs: CallRun[] = [];
  private readonly byId = new CallsById(this.runs);
  private readonly controller = new AbortController();
  /**
   * Set when the runner aborts its controller (nothing else can): reading it avoids Node's AbortSignal
   * getter on every dispatch, whose optimized code a full GC between runs threw away (decision 0007).
   */
  private abortedFlag = false;
  /** {@link LimitedInvokeHost.limiter}. */
  readonly limiter: CallLimiter;
  /** The run's observers; {@link ENDED} once `run-end` is out, so nothing follows it. */
  hub: EventHub;
  /** The run's clock (ms): `options.now`, else `Date.now`. */
  readonly now: () => number;
  /** {@link FatalRun.startedAt}. */
  readonly startedAt: number;
  private readonly queue: CoreEffect[] = [];
  /** {@link CommitHost.recordContext}. */
  readonly recordContext: Mutable<RecordContext>;
  private readonly settleInfo: Mutable<SettleInfo> = { status: "succeeded", alternative: undefined };
  /** Results waiting for the group commit at the end of the drain (stores with `commitCalls`). */
  private grouped: number[] = [];
  /** What decides a satisfied call's re-application (see `missingWrites`). */
  readonly reapplication: Reapplication = newReapplication();
  private readonly policies = new Map<string, RetryPolicy>();
  /** By tool: whether its calls are hashed only when the store needs it ({@link hashLater}). */
  private hashesLater: Map<string, boolean> | undefined;
  readonly runId: string;
  readonly threadId: string;
  readonly signal: AbortSignal;
  readonly timers: Timers;
  readonly random: () => number;
  readonly aroundTool: AroundTool | undefined;
  private draining = false;
  private cursor = 0;
  private readonly steps = new SerialSteps<Culprit>((error, culprit) => this.fatal(error, culprit));
  private loading: Promise<void> | undefined;
  private cancelled = false;
  private anyFailed = false;
  /** {@link LimitedInvokeHost.failingFast}. */
  failingFast = false;
  private closed = false;
  private unresolvedHints: ReadonlyMap<string, string> | undefined;
  /** Set once `run-end` is emitted (by `finish` or `fatal`). */
  private ended = false;
  private settle!: (result: ExecutionResult) => void;
  private reject!: (error: unknown) => void;
  abortReason = "run cancelled";
  /** The run's options, every member present: one hidden class whoever built them. */
  readonly options: RunnerSettings;

  /** Creates the runner and emits `run-start`. */
  constructor(options: RunnerOptions, plannedCalls = 0) {
    this.options = runnerSettings(options);
    this.now = options.now ?? Date.now;
    this.runId = options.runId;
    this.aroundTool = options.aroundTool;
    this.threadId = options.threadId;
    this.signal = this.controller.signal;
    this.timers = options.timers ?? systemTimers;
    this.random = options.random ?? Math.random;
    this.startedAt = this.now();
    this.recordContext = {
      threadId: options.threadId,
      runId: options.runId,
      endedAt: 0,
      maxValueBytes: options.maxValueBytes ?? DEFAULT_LIMITS.maxValueBytes,
    };
    this.hub = options.events ?? new EventHub();
    // Every in-flight attempt listens to the run's signal (removed when it ends): no listener cap (bug B3).
    setMaxListeners(0, this.controller.signal);
    this.result = new Promise((resolve, reject) => {
      this.settle = resolve;
      this.reject = reject;
    });
    this.context = new WorkingContext(
      deepFreeze(options.input),
      deepFreeze(options.state),
      options.extraKinds ?? {},
    );
    this.core = runDecisionCore(options, this.context, this.runs, this.byId);
    this.operands = this.core;
    const registry = options.registry;
    this.limiter =
      options.limiter ?? new CallLimiter(options.concurrency, (tool) => registry.get(tool)?.concurrency);
    const signal = options.signal;
    if (signal !== undefined) {
      if (signal.aborted) this.cancelled = true;
      else signal.addEventListener("abort", () => this.abortRun(cancelReason(signal), true), { once: true });
    }
    const requestedAt = options.requestedAt;
    this.emit({
      type: "run-start",
      planHash: options.planHash,
      calls: plannedCalls,
      ...(requestedAt === undefined ? {} : { queuedMs: Math.max(0, this.startedAt - requestedAt) }),
      ...(options.resumeOf === undefined ? {} : { resumeOf: options.resumeOf }),
    });
    if (this.cancelled) this.abortRun(cancelReason(signal as AbortSignal), true);
  }

  /** True once the run is aborted. */
  get aborted(): boolean {
    return this.abortedFlag;
  }

  /** Adds calls in plan order; each is dispatched as soon as it is ready. */
  add(calls: readonly CompiledCall[]): void {
    if (this.closed) throw new ObeliskError("USAGE", "the run is closed: no more calls can be added");
    for (let at = 0; at < calls.length; at++) {
      const call = calls[at] as CompiledCall;
      this.runs.push(newCallRun(call));
      this.byId.add(call);
    }
    const loaded = preloadCallOutputs(
      calls,
      this.byId,
      this.context,
      this.options.store,
      this.options.threadId,
    );
    this.whenLoaded(loaded, () => {
      this.core.add(calls, this.queue);
      this.pump();
    });
  }

  /**
   * No more calls: references still unclaimed end as REF_UNRESOLVED; resolves `result` when all settle.
   * `hints`: by call id, what the compiler's REF_UNRESOLVED said for that call (what to read instead, a
   * did-you-mean), added to its error's message.
   */
  close(hints?: ReadonlyMap<string, string>): Promise<ExecutionResult> {
    if (!this.closed) {
      this.closed = true;
      this.unresolvedHints = hints;
      this.whenLoaded(undefined, () => {
        this.core.close(this.queue);
        this.pump();
      });
    }
    return this.result;
  }

  private whenLoaded(loaded: Promise<void> | undefined, next: () => void): void {
    if (loaded === undefined && this.loading === undefined) {
      next();
      return;
    }
    const previous = this.loading ?? Promise.resolve();
    const chained = previous.then(() => loaded).then(next);
    this.loading = chained.then(
      () => {
        if (this.loading === chained) this.loading = undefined;
      },
      (error: unknown) => this.fatal(error),
    );
  }

  /**
   * Performs the effects the core appended to the queue (iteratively: no deep recursion on long chains).
   * The core writes into the queue itself, so no array is allocated per event.
   */
  private pump(): void {
    if (!this.draining) this.drain();
  }

  /**
   * Performs queued effects. With synchronous tools and store a whole run could otherwise finish in one
   * macrotask, so a cancellation signal or a timer could never fire: after a slice of effects the runner
   * yields to the event loop and goes on from the same place. (`perform` never throws.)
   */
  private drain(): void {
    this.draining = true;
    let performed = 0;
    for (;;) {
      while (this.cursor < this.queue.length) {
        if (performed === EFFECTS_PER_SLICE) {
          this.flushGroup();
          setImmediate(() => this.drain());
          return;
        }
        this.perform(this.queue[this.cursor++] as CoreEffect);
        performed++;
      }
      if (this.grouped.length === 0) break;
      this.flushGroup(); // its settled calls may queue more effects
    }
    this.queue.length = 0;
    this.cursor = 0;
    this.draining = false;
  }

  private perform(effect: CoreEffect): void {
    try {
      const done = this.performEffect(effect);
      if (isThenable(done))
        Promise.resolve(done).catch((error: unknown) => this.fatal(error, culpritOf(effect)));
    } catch (error) {
      this.fatal(error, culpritOf(effect));
    }
  }

  private performEffect(effect: CoreEffect): Awaitable<void> {
    switch (effect.type) {
      case "dispatch": {
        const run = this.runOf(effect.index);
        if (!this.hub.idle && !this.aborted) {
          const waitedFor = this.core.waitedFor(effect.index);
          this.emit({ type: "call-ready", callId: run.call.id, tool: run.call.tool, waitedFor });
        }
        const tool = this.options.registry.get(run.call.tool) as RegisteredTool;
        return dispatchCall(this, effect.index, run, tool);
      }
      case "unsatisfied": {
        const hint = this.unresolvedHints?.get(this.runOf(effect.index).call.id);
        return this.end(
          effect.index,
          unsatisfiedEnding(effect, this.aborted ? this.abortReason : undefined, hint),
        );
      }
      case "commit":
        return this.commitPending(effect.index);
      case "finish":
        return this.finish();
      default:
        return assertNever(effect);
    }
  }

  /** {@link CommitHost.runOf}. */
  runOf(index: number): CallRun {
    return this.runs[index] as CallRun;
  }

  /** {@link DispatchHost.invoke}: under the run's limits (see {@link invokeLimited}). */
  invoke(index: number, run: CallRun, tool: RegisteredTool): Awaitable<void> {
    return invokeLimited(this, index, run, tool);
  }

  /** {@link InvocationHost}: how a call's attempts ended (`early`: judged for failFast first). */
  invoked(
    index: number,
    run: CallRun,
    tool: RegisteredTool,
    outcome: InvokeOutcome,
    early: boolean,
  ): Awaitable<void> {
    return onInvoked(this, index, run, tool, early ? failFastEarly(this, run.call, outcome) : outcome);
  }

  /** Completed records that satisfied a call of this run (`<runId> <callId>`): each satisfies one call. */
  private claimed: Set<string> | undefined = undefined;

  /** {@link DispatchHost.claim}. */
  claim(record: CallRecord): boolean {
    const key = `${record.runId} ${record.callId}`;
    this.claimed ??= new Set();
    if (this.claimed.has(key)) return false;
    this.claimed.add(key);
    return true;
  }

  /** {@link DispatchHost.hashLater}: asked of the store once per tool and run, before any of its calls commits. */
  hashLater(tool: string): boolean {
    let later = this.hashesLater?.get(tool);
    if (later === undefined) {
      const store = this.options.store;
      later = store.holdsCompletedOf?.(asThreadId(this.threadId), tool) === false;
      this.hashesLater ??= new Map();
      this.hashesLater.set(tool, later);
    }
    return later;
  }

  /** {@link DispatchHost.mayReuse}: a record of this run or of a run it resumes satisfies only its own call. */
  mayReuse(record: CallRecord, call: CompiledCall): boolean {
    if (record.callId === call.id) return true;
    return record.runId !== this.runId && this.options.resumes?.has(record.runId) !== true;
  }

  /** {@link LimitedInvokeHost.policyOf}: cached per tool for calls without their own `_retry`. */
  policyOf(call: CompiledCall, tool: RegisteredTool): RetryPolicy {
    if (call.retry !== undefined) return resolveRetryPolicy(tool.retry, call);
    let policy = this.policies.get(tool.name);
    if (policy === undefined) {
      policy = resolveRetryPolicy(tool.retry, call);
      this.policies.set(tool.name, policy);
    }
    return policy;
  }

  /** {@link InvocationHost}: an attempt starts. */
  attemptStarted(run: CallRun, attempt: number): void {
    run.attempts = attempt;
    run.startedAt ??= this.now();
    if (!this.hub.idle) {
      const call = run.call;
      const params = run.shownParams ?? run.params ?? {};
      this.emit({ type: "call-start", callId: call.id, tool: call.tool, attempt, params });
    }
  }

  /** {@link InvocationHost}: a retry is scheduled. */
  retrying(run: CallRun, attempt: number, delayMs: number, error: RecordedError): void {
    const call = run.call;
    this.emit({ type: "call-retry", callId: call.id, tool: call.tool, attempt, delayMs, error });
  }

  /** A completed result: the core decides when it may be committed (plan order for accumulating paths). */
  complete(index: number, pending: PendingResult): void {
    this.runOf(index).pending = pending;
    this.core.completed(index, pending.alternative, this.queue);
    this.pump();
  }

  /**
   * Commits a completed result at the end of this drain, with the others that completed during it: the
   * store's commit, then the writes applied to the working state, then settle.
   */
  private commitPending(index: number): void {
    this.grouped.push(index);
  }

  /**
   * Group commit: the results that completed during this drain are made durable by one store transaction
   * (each call's commit still atomic on its own), then applied and settled in order. Nothing of theirs is
   * visible to a dependent before that transaction is durable. Satisfied results that re-apply only
   * missing values are decided against the state one at a time, so a group holding one commits singly.
   */
  private flushGroup(): void {
    const indexes = this.grouped;
    if (indexes.length === 0) return;
    this.grouped = [];
    const single = indexes.length === 1 || indexes.some((index) => this.runOf(index).pending?.onlyMissing);
    // A step that fails synchronously (a store or an injected clock that throws) ends the run, as a
    // failing effect does: this runs at the end of a drain, outside `perform`.
    let culprit: Culprit = indexes;
    try {
      if (single)
        for (const index of indexes) {
          culprit = index;
          this.steps.run(this.commitStep, index);
        }
      else this.steps.run(this.commitGroup, indexes);
    } catch (error) {
      this.fatal(error, culprit);
    }
  }

  /** One serialized group commit step (a field, so the hot path creates no closure per call). */
  private readonly commitGroup = (indexes: readonly number[]): Awaitable<void> => groupCommit(this, indexes);

  /** One serialized commit step (a field, so the hot path creates no closure per call). */
  private readonly commitStep = (index: number): Awaitable<void> => commitOne(this, index);

  /** Ends a call without a result: commits its record (no writes), then settles it. */
  end(index: number, ending: CallEnding): void {
    const run = this.runOf(index);
    if (run.ending !== undefined) return;
    run.ending = ending.status;
    this.flushGroup(); // records reach the store in the order the calls ended
    try {
      this.steps.run((at: number) => commitEnding(this, at, ending), index);
    } catch (error) {
      this.fatal(error, index); // a store that throws at once: the run ends here, not in the caller
    }
  }

  /** {@link CommitHost.settleCall}. */
  settleCall(index: number, ending: CallEnding, endedAt: number): void {
    const run = this.runOf(index);
    const report = buildCallReport(run, ending, endedAt);
    // emitted before the report is kept: a clock that throws here leaves the call to `fatal`'s call-end
    if (!this.hub.idle) {
      const call = run.call;
      const outcomes =
        report.branch === undefined ? undefined : this.options.registry.get(call.tool)?.outcomes;
      this.emit(callEndEvent(report, call.outputPath, outcomes));
    }
    run.report = report;
    run.pending = undefined;
    if (ending.status === "failed") {
      this.anyFailed = true;
      if (this.options.failFast === true) this.abortRun(`failFast: ${run.call.id} failed`, false);
    }
    const alternative =
      ending.status === "succeeded" || ending.status === "satisfied"
        ? (ending.branch ?? (run.call.outputPath ? 0 : undefined))
        : undefined;
    // One object for every settle: the core reads it at once and keeps nothing of it.
    const info = this.settleInfo;
    info.status = ending.status;
    info.alternative = alternative;
    this.core.settled(index, info, this.queue);
    this.pump();
  }

  /** Aborts the run: in-flight calls get the abort, calls not yet dispatched end `cancelled`. */
  private abortRun(reason: string, external: boolean): void {
    if (this.aborted) return;
    if (external) this.cancelled = true;
    this.abortReason = reason;
    this.abortedFlag = true;
    this.controller.abort(new ObeliskError("CANCELLED", reason));
    for (const index of this.core.undispatched()) this.end(index, { status: "cancelled", wrote: [], reason });
  }

  private finish(): void {
    const status = this.cancelled ? "cancelled" : this.anyFailed ? "failed" : "succeeded";
    const durationMs = Math.max(0, this.now() - this.startedAt);
    this.endEvents({ type: "run-end", status, durationMs });
    const calls = this.runs.map((run) => run.report).filter((report) => report !== undefined);
    this.settle(new FinishedExecution(status, calls, this.context, durationMs));
  }

  /**
   * A store or internal error: the run cannot continue. In-flight attempts are aborted; every call without
   * a `call-end` gets one — `failed` with the error for the `culprit` (the calls whose commit or dispatch
   * hit it), `cancelled` for the others (nothing of theirs is committed) — then `run-end` (`failed`, with
   * the error), and the result rejects. Events the run would emit later are dropped. Only the first
   * error counts.
   */
  private fatal(error: unknown, culprit?: Culprit): void {
    const failure = ObeliskError.is(error)
      ? error
      : new ObeliskError("STORE_ERROR", toRecordedError(error).message, { cause: error });
    // nothing more reaches the store: the run is over for its host, which finishes its record and may let
    // another run take the thread; a call still in flight gets the abort and its answer is dropped
    this.steps.stop();
    if (!this.aborted) {
      this.abortedFlag = true;
      this.controller.abort(error);
    }
    if (!this.ended) this.endFatally(failure, culprit);
    this.reject(failure);
  }

  /** The events of a fatal end (see `fatal`); a clock that throws too gives them the run's start time. */
  private endFatally(failure: ObeliskError, culprit: Culprit): void {
    const hub = this.hub;
    this.ended = true;
    this.hub = ENDED;
    if (!hub.idle) emitFatalEnd(hub, this.runs, this, failure, culprit);
  }

  /**
   * Emits `run-end`, the run's last event: nothing the runner emits after it reaches the observers. Its
   * time is read first: a clock that throws leaves the run to `fatal`, which then ends it.
   */
  private endEvents(event: Extract<EventInput, { type: "run-end" }>): void {
    const hub = this.hub;
    const at = hub.idle ? 0 : this.now();
    this.ended = true;
    this.hub = ENDED;
    if (!hub.idle) hub.emit({ ...event, runId: this.runId, threadId: this.threadId, at });
  }

  /** {@link CommitHost.emit}: nothing once the run has ended. */
  emit(event: EventInput): void {
    if (this.hub.idle) return;
    this.hub.emit({ ...event, runId: this.runId, threadId: this.threadId, at: this.now() } as RunEvent);
  }
}
