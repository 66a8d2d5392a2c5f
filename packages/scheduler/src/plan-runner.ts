import { setMaxListeners } from "node:events";
import type { CompiledCall, RegisteredTool, RetryPolicy } from "@obelisk/compiler";
import {
  assertNever,
  asThreadId,
  cutText,
  DEFAULT_LIMITS,
  deepFreeze,
  type Mutable,
  ObeliskError,
} from "@obelisk/core";
import type { Awaitable, CallCommit, CallRecord, CommitResult, RecordedError } from "@obelisk/state";
import type { AroundTool } from "./around-tool.js";
import { after, isThenable } from "./awaitable.js";
import { CallInvocation, type InvocationHost } from "./call-invocation.js";
import { CallLimiter } from "./call-limiter.js";
import {
  buildCallRecord,
  buildCallReport,
  type CallEnding,
  keepableRecord,
  type RecordContext,
} from "./call-record.js";
import { CallsById, createClaims, createWritersOf, preloadCallOutputs } from "./call-writers.js";
import { buildCompletion, type Completion } from "./completion-commit.js";
import { DecisionCore } from "./decision-core.js";
import type { CoreEffect, SettleInfo } from "./decision-types.js";
import { type DispatchHost, dispatchCall, failureBranch, onInvoked } from "./dispatch-call.js";
import { EventHub, toRecordedError } from "./event-hub.js";
import { fatalEndEvents } from "./fatal-end-events.js";
import { FinishedExecution } from "./finished-execution.js";
import { type InvokeOutcome, invokeToolThen } from "./invoke-tool.js";
import type { OperandFilter } from "./resolve-params.js";
import { resolveRetryPolicy } from "./retry-delay.js";
import { callEndEvent, type RunEvent } from "./run-event.js";
import { type RunnerSettings, runnerSettings } from "./runner-settings.js";
import type { CallRun, ExecutionResult, PendingResult, RunnerOptions } from "./runner-types.js";
import { SerialSteps } from "./serial-steps.js";
import { newReapplication, type Reapplication } from "./state-writes.js";
import { systemTimers, type Timers } from "./timers.js";
import { WorkingContext } from "./working-context.js";

/** Distributes the `Omit` over the event union. */
type EventInput = RunEvent extends infer E
  ? E extends RunEvent
    ? Omit<E, "runId" | "threadId" | "at">
    : never
  : never;

/** The calls a fatal error is attributed to (see `fatal`): a call's index, or a commit group's. */
type Culprit = number | readonly number[] | undefined;

/** What the runner emits to once its `run-end` is out: nobody (every later event is dropped). */
const ENDED = new EventHub();

/** Effects performed before the runner yields to the event loop (see `drain`). */
const EFFECTS_PER_SLICE = 1024;

/**
 * The thin runner around the decision core: performs its effects (dispatch with limits, timeouts and
 * retries; commit through the store before dependents start; emit events) and reports back.
 * Batch: `add(all calls)` then `close()`. Streaming: `add` one call at a time, `close()` at the end.
 */
export class PlanRunner implements DispatchHost, InvocationHost {
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
  private readonly limiter: CallLimiter;
  /** The run's observers; {@link ENDED} once `run-end` is out, so nothing follows it. */
  private hub: EventHub;
  /** The run's clock (ms): `options.now`, else `Date.now`. */
  readonly now: () => number;
  private readonly startedAt: number;
  private readonly queue: CoreEffect[] = [];
  private readonly recordContext: Mutable<RecordContext>;
  private readonly settleInfo: Mutable<SettleInfo> = { status: "succeeded", alternative: undefined };
  /** Results waiting for the group commit at the end of the drain (stores with `commitCalls`). */
  private grouped: number[] = [];
  /** What decides a satisfied call's re-application (see `missingWrites`). */
  private readonly reapplication: Reapplication = newReapplication();
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
  /** failFast: a certain failure is known; calls granted a slot from now on end `cancelled` unstarted. */
  private failingFast = false;
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
    // calls made ready together start critical path first, as they get slots under a limit
    const paths = options.criticalPaths;
    this.core = new DecisionCore({
      probe: this.context,
      closed: options.streaming !== true,
      writersOf: createWritersOf(this.byId),
      claims: createClaims(),
      ...(paths === undefined ? {} : { rank: (index: number) => paths.get(this.runOf(index).call.id) ?? 0 }),
    });
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
      this.runs.push({
        call,
        params: undefined,
        shownParams: undefined,
        plannedParams: undefined,
        hash: undefined,
        attempts: 0,
        startedAt: undefined,
        pending: undefined,
        ending: undefined,
        report: undefined,
      });
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
      case "unsatisfied":
        if (this.aborted)
          return this.end(effect.index, { status: "cancelled", wrote: [], reason: this.abortReason });
        if (effect.status !== "failed")
          return this.end(effect.index, { status: effect.status, wrote: [], reason: effect.reason });
        return this.end(effect.index, {
          status: "failed",
          wrote: [],
          reason: effect.reason,
          error: { name: "ObeliskError", code: effect.code, message: this.withHint(effect) },
        });
      case "commit":
        return this.commitPending(effect.index);
      case "finish":
        return this.finish();
      default:
        return assertNever(effect);
    }
  }

  /** The reason of a call that failed unsatisfied, with the compiler's hint for it when close gave one. */
  private withHint(effect: { readonly index: number; readonly reason: string }): string {
    const hint = this.unresolvedHints?.get(this.runOf(effect.index).call.id);
    return hint === undefined ? effect.reason : `${effect.reason} (${hint})`;
  }

  private runOf(index: number): CallRun {
    return this.runs[index] as CallRun;
  }

  /**
   * Invokes the tool under the limits and settles its outcome; fast path (no queue) when nothing is
   * limited. Under a limit the outcome is settled inside the slot: a freed slot would otherwise go to a
   * call already waiting before this call's dependents (perhaps on the critical path) were even queued.
   * The request settles through {@link invoked} (no closure per call).
   */
  invoke(index: number, run: CallRun, tool: RegisteredTool): Awaitable<void> {
    const call = run.call;
    const unlimited = this.limiter.unlimited(tool.name);
    // failFast under a limit: the outcome is judged before the slot is given back (see failFastEarly)
    const early = !unlimited && this.options.failFast === true;
    const request = new CallInvocation(this, run, tool, this.policyOf(call, tool), index, early);
    if (unlimited) return invokeToolThen(request);
    let started = false;
    const task = (): Awaitable<void> => {
      started = true;
      if (this.failingFast) return request.settle({ kind: "cancelled", attempts: run.attempts });
      return invokeToolThen(request);
    };
    // A streamed call's remaining path is unknown until close: it ranks as a call nothing follows (its cost).
    const priority = this.options.criticalPaths?.get(call.id) ?? tool.cost;
    return this.limiter.run(tool.name, priority, this.signal, task).catch((error: unknown) => {
      // Refused before it started (the run was aborted while it waited): the call is cancelled. A failure
      // while settling is the runner's own and fatal, as on the fast path.
      if (started) throw error;
      return request.settle({ kind: "cancelled", attempts: run.attempts });
    });
  }

  /** {@link InvocationHost}: how a call's attempts ended (`early`: judged for failFast first). */
  invoked(
    index: number,
    run: CallRun,
    tool: RegisteredTool,
    outcome: InvokeOutcome,
    early: boolean,
  ): Awaitable<void> {
    return onInvoked(this, index, run, tool, early ? this.failFastEarly(run.call, outcome) : outcome);
  }

  /**
   * failFast with limited slots: a certain failure (an uninspectable result, or a thrown error with no
   * failure branch) is marked before the call gives its slot back, so a queued call granted that slot ends
   * `cancelled` without starting; the run itself is aborted when the failure settles.
   */
  private failFastEarly(call: CompiledCall, outcome: InvokeOutcome): InvokeOutcome {
    const fails =
      outcome.kind === "invalid" || (outcome.kind === "threw" && failureBranch(call) === undefined);
    if (!this.failingFast && fails) {
      this.failingFast = true;
      this.abortReason = `failFast: ${call.id} failed`;
    }
    return outcome;
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

  /** The effective retry policy: cached per tool for calls without their own `_retry`. */
  private policyOf(call: CompiledCall, tool: RegisteredTool): RetryPolicy {
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

  /** One serialized group commit step. */
  private readonly commitGroup = (indexes: readonly number[]): Awaitable<void> => {
    const endedAt = this.now();
    this.recordContext.endedAt = endedAt;
    const completions: Completion[] = new Array(indexes.length);
    const commits: CallCommit[] = new Array(indexes.length);
    for (let at = 0; at < indexes.length; at++) {
      const completion = this.completionOf(indexes[at] as number);
      completions[at] = completion;
      commits[at] = completion.commit;
    }
    // A store without group commit takes the same commits one by one: what reaches the store, and in
    // which order (write log, records, ties in retention), does not depend on the store (differential
    // review F1–F4: the memory store used to commit, and record failures, as each call ended).
    const store = this.options.store;
    if (store.commitCalls === undefined) return this.commitEach(indexes, completions, commits, endedAt);
    return after(store.commitCalls(commits), (answers) => {
      if (answers.length !== indexes.length)
        throw new ObeliskError("STORE_ERROR", "the store answered a group commit with the wrong count");
      return this.applyCommitted(indexes, completions, endedAt, answers, 0, indexes.length);
    });
  };

  /**
   * A group through `store.commitCall`, one by one. Synchronous answers are applied once all are in, as a
   * group commit's are; from the first asynchronous answer on, each commit is applied as soon as it is
   * durable, so a dependent does not wait for its siblings' commits (regression review 2).
   */
  private commitEach(
    indexes: readonly number[],
    completions: readonly Completion[],
    commits: readonly CallCommit[],
    endedAt: number,
  ): Awaitable<void> {
    const store = this.options.store;
    const answers: CommitResult[] = new Array(commits.length);
    for (let at = 0; at < commits.length; at++) {
      const answer = store.commitCall(commits[at] as CallCommit);
      if (isThenable(answer)) {
        const pending = answer;
        return after(this.applyCommitted(indexes, completions, endedAt, answers, 0, at), () =>
          this.commitRest(indexes, completions, commits, endedAt, at, pending),
        );
      }
      answers[at] = answer;
    }
    return this.applyCommitted(indexes, completions, endedAt, answers, 0, commits.length);
  }

  /** Waits for the commit at `at`, applies it, then commits and applies the rest one at a time. */
  private commitRest(
    indexes: readonly number[],
    completions: readonly Completion[],
    commits: readonly CallCommit[],
    endedAt: number,
    at: number,
    pending: PromiseLike<CommitResult>,
  ): Promise<void> {
    return Promise.resolve(pending).then(async (answer) => {
      await this.committed(indexes[at] as number, completions[at] as Completion, endedAt, answer);
      for (let next = at + 1; next < commits.length; next++) {
        const result = await this.options.store.commitCall(commits[next] as CallCommit);
        await this.committed(indexes[next] as number, completions[next] as Completion, endedAt, result);
      }
    });
  }

  /** Applies and settles a group's answers in order from `start` (no closure per call while they are synchronous). */
  private applyCommitted(
    indexes: readonly number[],
    completions: readonly Completion[],
    endedAt: number,
    answers: readonly CommitResult[],
    start: number,
    end: number,
  ): Awaitable<void> {
    for (let at = start; at < end; at++) {
      const done = this.committed(
        indexes[at] as number,
        completions[at] as Completion,
        endedAt,
        answers[at] as CommitResult,
      );
      if (isThenable(done))
        return Promise.resolve(done).then(() =>
          this.applyCommitted(indexes, completions, endedAt, answers, at + 1, end),
        );
    }
    return undefined;
  }

  /**
   * The completion (commit and writes) of a call's pending result, built with the runner's one record
   * context, whose `endedAt` the caller sets: buildCallRecord reads it at once and keeps nothing of it.
   */
  private completionOf(index: number): Completion {
    const run = this.runOf(index);
    return buildCompletion(
      run,
      run.pending as PendingResult,
      this.context.stateAt,
      this.recordContext,
      this.reapplication,
    );
  }

  /** One serialized commit step (a field, so the hot path creates no closure per call). */
  private readonly commitStep = (index: number): Awaitable<void> => {
    const endedAt = this.now();
    this.recordContext.endedAt = endedAt;
    const completion = this.completionOf(index);
    const result = this.options.store.commitCall(completion.commit);
    if (!isThenable(result)) return this.committed(index, completion, endedAt, result);
    return Promise.resolve(result).then((value) => this.committed(index, completion, endedAt, value));
  };

  /** After the store's answer: apply the writes to the working state and settle (or fail the call). */
  private committed(
    index: number,
    completion: Completion,
    endedAt: number,
    result: CommitResult,
  ): Awaitable<void> {
    if (!result.ok) {
      const { code, message } = result.error;
      return this.commitEnding(index, {
        status: "failed",
        wrote: [],
        error: { name: "ObeliskError", code, message },
      });
    }
    const { writes, ending } = completion;
    const failure = writes.length === 0 ? undefined : this.context.write(writes);
    if (failure !== undefined)
      throw new ObeliskError(
        "STORE_ERROR",
        `the store accepted a write the working state cannot apply: ${failure}`,
      );
    const run = this.runOf(index);
    const call = run.call;
    // dependents read the output here, also one a satisfied call did not store again (the thread holds it)
    if (call.outputPath === undefined && run.pending?.value !== undefined)
      this.context.setCallOutput(call.id, run.pending.value);
    if (!this.hub.idle) {
      for (const write of writes) {
        this.emit({
          type: "state-write",
          callId: call.id,
          tool: call.tool,
          reference: write.reference,
          method: write.method,
        });
      }
    }
    this.settleCall(index, ending, endedAt);
  }

  /** Ends a call without a result: commits its record (no writes), then settles it. */
  end(index: number, ending: CallEnding): void {
    const run = this.runOf(index);
    if (run.ending !== undefined) return;
    run.ending = ending.status;
    this.flushGroup(); // records reach the store in the order the calls ended
    try {
      this.steps.run((at: number) => this.commitEnding(at, ending), index);
    } catch (error) {
      this.fatal(error, index); // a store that throws at once: the run ends here, not in the caller
    }
  }

  private commitEnding(index: number, ending: CallEnding): Awaitable<void> {
    const run = this.runOf(index);
    run.ending = ending.status;
    const endedAt = this.now();
    const { maxValueBytes } = this.recordContext;
    const record = buildCallRecord(run, ending, {
      threadId: this.options.threadId,
      runId: this.options.runId,
      endedAt,
      maxValueBytes,
    });
    const store = this.options.store;
    return after(store.commitCall({ record, writes: [], maxValueBytes }), (result) => {
      if (result.ok) return this.settleCall(index, ending, endedAt);
      // Every call leaves a record (SPEC §8): one the store refused (a field it cannot keep) is kept cut.
      const cut = keepableRecord(record, result.error.message);
      return after(store.commitCall({ record: cut, writes: [], maxValueBytes }), () =>
        this.settleCall(index, ending, endedAt),
      );
    });
  }

  private settleCall(index: number, ending: CallEnding, endedAt: number): void {
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
    if (hub.idle) return;
    let at: number;
    try {
      at = this.now();
    } catch {
      at = this.startedAt;
    }
    const culprits = culprit === undefined ? [] : typeof culprit === "number" ? [culprit] : culprit;
    const ending = {
      runId: this.runId,
      threadId: this.threadId,
      at,
      startedAt: this.startedAt,
      failure,
      culprits,
    };
    for (const event of fatalEndEvents(this.runs, ending)) hub.emit(event);
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

  private emit(event: EventInput): void {
    if (this.hub.idle) return;
    this.hub.emit({ ...event, runId: this.runId, threadId: this.threadId, at: this.now() } as RunEvent);
  }
}

/** The calls a failure while performing `effect` is attributed to. */
function culpritOf(effect: CoreEffect): Culprit {
  return effect.type === "finish" ? undefined : effect.index;
}

/** Most characters of the caller's abort reason kept in the calls' reason. */
const CANCEL_REASON_CHARS = 200;

/**
 * The reason cancelled calls give: "run cancelled", with the caller's own reason when it gave one
 * (`controller.abort("user pressed stop")`, an `Error`); Node's default abort reason adds nothing, and a
 * timeout signal says so.
 */
function cancelReason(signal: AbortSignal): string {
  let detail: string | undefined;
  try {
    const reason: unknown = signal.reason;
    if (reason instanceof Error && reason.name === "TimeoutError") detail = "the run's signal timed out";
    else if (reason instanceof Error && reason.name !== "AbortError") detail = String(reason.message);
    else if (typeof reason === "string") detail = reason;
  } catch {
    detail = undefined; // a reason that cannot be read adds nothing
  }
  if (detail === undefined || detail.trim() === "") return "run cancelled";
  return `run cancelled: ${cutText(detail, CANCEL_REASON_CHARS)}`;
}
