import { type CompileContext, type CompiledPlan, compile, type ToolRegistry } from "@obelisk/compiler";
import {
  asRunId,
  asThreadId,
  type Diagnostic,
  type JsonObject,
  type JsonValue,
  type KindTable,
  planNotApproved,
  type RunId,
  type ThreadId,
  toJsonValue,
} from "@obelisk/core";
import { CallLimiter, EventHub, type RunObserver } from "@obelisk/scheduler";
import type { StateStore, ThreadInfo } from "@obelisk/state";
import { ActiveRuns } from "./active-runs.js";
import { afterRun } from "./after-run.js";
import { highestAutoIdNumber, reservePast, toldCallNumber } from "./auto-id-numbers.js";
import { withHolderRun } from "./busy-holder.js";
import { InputChecker, type SchemaSource } from "./check-input.js";
import { engineKinds } from "./engine-kinds.js";
import type {
  EngineDiagnostic,
  EngineOptions,
  RunOptions,
  ValidateOptions,
  ValidationResult,
} from "./engine-types.js";
import { type FrozenPlan, freezePlan } from "./frozen-plan.js";
import { keepRunShapesSoon } from "./keep-run-shapes.js";
import { KindScope, withAddedDiagnostics } from "./kind-readers.js";
import { releaseAfter } from "./lock-release.js";
import {
  type HostContext,
  type NormalizedInput,
  normalizeContext,
  normalizeInput,
} from "./normalize-input.js";
import type { PreparedRun, PrepareSteps } from "./prepared-run.js";
import { refuseRecordedRunId } from "./record-run.js";
import { checkRerunIds } from "./rerun-option.js";
import { numberedAsResent, runNumbering } from "./resent-numbering.js";
import { runVerdict } from "./run-verdict.js";
import { threadContext } from "./thread-context.js";
import { withInputDiagnostics } from "./with-input-diagnostics.js";

export type { ResumedNumbering } from "./prepared-run.js";

/** No diagnostics (a plan read by no scoped kind). */
const NO_DIAGNOSTICS: readonly Diagnostic[] = Object.freeze([]);

/** `ids` without `except` (the same set when there is nothing to take out). */
function withoutIds(ids: ReadonlySet<string>, except: ReadonlySet<string> | undefined): ReadonlySet<string> {
  if (except === undefined || except.size === 0) return ids;
  const kept = new Set(ids);
  for (const id of except) kept.delete(id);
  return kept;
}

/** The engine's shared machinery: registry, store, clocks and the prepare / finish steps of every run. */
export class EngineRuntime {
  readonly kinds: KindTable;
  /** The names of the host-declared kinds: the keys a run's `context` may have. */
  readonly hostKinds: ReadonlySet<string>;
  /** Where the host lets its kinds be read (`HostKind.readers`); undefined when no kind is scoped. */
  readonly kindScope: KindScope | undefined;
  readonly now: () => number;
  /** The engine's limits, shared by all its runs (global and per-tool limits hold across threads). */
  readonly limiter: CallLimiter;
  /** Runs in flight: `close()` cancels them and waits for their records before the store closes. */
  readonly active = new ActiveRuns();
  private readonly inputs = new InputChecker();

  constructor(
    readonly options: EngineOptions,
    readonly registry: ToolRegistry,
    readonly store: StateStore,
  ) {
    this.kinds = engineKinds(options.kinds);
    this.hostKinds = new Set((options.kinds ?? []).map((info) => info.kind));
    this.kindScope = KindScope.of(options.kinds, registry, this.kinds, options.limits);
    this.now = options.now ?? Date.now;
    this.limiter = new CallLimiter(options.concurrency, (tool) => registry.get(tool)?.concurrency);
  }

  /** ISO time from the injected clock. */
  iso(): string {
    return new Date(this.now()).toISOString();
  }

  /** The end time for a run record: the injected clock's, or the real one when that clock fails, so the record still ends. */
  endedAt(): string {
    try {
      return this.iso();
    } catch {
      return new Date().toISOString();
    }
  }

  /**
   * A run's input and host-kind values as frozen JSON copies, held to the engine's `maxValueBytes` like every
   * stored value (USAGE otherwise, before any lock).
   */
  runValues(options: { readonly input?: unknown; readonly context?: unknown }): {
    readonly input: NormalizedInput;
    readonly extraKinds: HostContext | undefined;
  } {
    const maxBytes = this.options.limits?.maxValueBytes;
    return {
      input: normalizeInput(options.input, maxBytes),
      extraKinds: normalizeContext(options.context, this.hostKinds, maxBytes),
    };
  }

  /**
   * A new run id from the injected generator; USAGE when the store already holds a run with it. Asked for
   * once a run is accepted, before its thread is opened or call numbers taken: a refused id leaves no trace.
   */
  async newRunId(): Promise<RunId> {
    const runId = asRunId((this.options.generateId ?? (() => crypto.randomUUID()))());
    await refuseRecordedRunId(this.store, runId);
    return runId;
  }

  /** The compile context of a thread (see {@link threadContext}: given as the store holds it, never opened). */
  threadContext(
    threadId: ThreadId,
    thread: ThreadInfo | undefined,
    input: NormalizedInput,
    extra: HostContext | undefined,
    known?: { readonly input: boolean; readonly context: boolean },
  ): Promise<CompileContext> {
    return threadContext(this, threadId, thread, input, extra, known);
  }

  /** The plan as it is now, read once: what every compile of the run or validation reads ({@link freezePlan}). */
  freeze(plan: unknown): FrozenPlan {
    return freezePlan(plan, this.registry, this.kinds, this.options.limits);
  }

  /** Compiles with the context and checks the input against the schemas (`undefined`: the input is unknown). */
  compile(
    plan: FrozenPlan,
    context: CompileContext,
    input: NormalizedInput | undefined,
    firstAutoIdNumber?: number,
    ownCallIds?: ReadonlySet<string>,
  ): ValidationResult {
    const compiled =
      plan.refused ??
      compile(plan.value, this.registry, {
        context,
        kinds: this.kinds,
        ...(this.options.limits === undefined ? {} : { limits: this.options.limits }),
        ...(firstAutoIdNumber === undefined ? {} : { firstAutoIdNumber }),
        // Automatic ids skip ids the thread already holds outputs under (given ids cannot contain `$`),
        // except, on resume, the outputs the resumed run itself stored under them.
        ...(context.callOutputs === undefined
          ? {}
          : { usedCallIds: withoutIds(context.callOutputs, ownCallIds) }),
      });
    const inputDiagnostics = this.inputs.check(input, compiled.document?.inputSchema);
    // a host kind read where its readers do not let it be (decision 0073): only when some kind is scoped
    const forbidden = this.kindScope?.compiledReads(compiled) ?? NO_DIAGNOSTICS;
    const planDiagnostics = withAddedDiagnostics(compiled.diagnostics, forbidden, compiled);
    const diagnostics = withInputDiagnostics(planDiagnostics, inputDiagnostics, compiled.document);
    const ok = compiled.ok && inputDiagnostics.length === 0 && forbidden.length === 0;
    return { ok, planHash: compiled.planHash, diagnostics, compiled };
  }

  /** Input diagnostics against a schema given separately (streaming) and the Input message's schema. */
  checkInput(
    input: NormalizedInput,
    schema: JsonObject | undefined,
    source: SchemaSource,
  ): EngineDiagnostic[] {
    return this.inputs.check(input, schema, source);
  }

  /**
   * `validate`: compile against the thread's context (automatic ids as a run would number them); no lock.
   * Without `options.input` the input is unknown (a plan is approved before its inputs exist): references
   * into †input are judged by the plan's `inputSchema` alone, and no input is checked against it.
   */
  async validate(plan: unknown, options: ValidateOptions = {}): Promise<ValidationResult> {
    const threadId = asThreadId(options.threadId ?? "default");
    const inputKnown = options.input !== undefined;
    const { input, extraKinds } = this.runValues(options);
    // read before the first await: a change to the caller's object while the store answers changes nothing
    const frozen = this.freeze(plan);
    // expiry on read, as a run starting now does: both judge the outputs the thread holds at this moment
    await this.store.expireStale(threadId, this.options.retention);
    const thread = await this.store.getThread(threadId);
    const context = await this.threadContext(threadId, thread, input, extraKinds, {
      input: inputKnown,
      context: options.context !== undefined,
    });
    const first = (await toldCallNumber(this.store, threadId)) ?? 1;
    const known = inputKnown ? input : undefined;
    // numbered as a run would number it: a re-send of an interrupted run as that run (decision 0099)
    const { validation } = await numberedAsResent(
      this.store,
      threadId,
      input.given,
      this.compile(frozen, context, known, first),
      (n) => this.compile(frozen, context, known, n.firstAutoIdNumber, n.ownCallIds),
    );
    keepRunShapesSoon();
    // one options object serves run and validate: validate refuses the rerun ids run would refuse
    const { rerun } = options as Pick<RunOptions, "rerun">;
    if (validation.ok) checkRerunIds(rerun, validation.compiled);
    return validation;
  }

  /**
   * Takes the lock, validates (PLAN_INVALID, PLAN_NOT_APPROVED), asks `steps.accept` and reserves automatic
   * id numbers; a resumed run, or a plan re-sent after a crash, is numbered as the run it continues was (its
   * numbers are reserved already: the counter is only moved past them if it is not, decision 0099). `plan`
   * was frozen when the engine was called: a second compile (the store could not tell the numbers it
   * reserves) reads that copy and is checked again, and `accept` is shown the compile that runs (0092).
   */
  async prepare(plan: FrozenPlan, options: RunOptions, steps: PrepareSteps = {}): Promise<PreparedRun> {
    const { resumed, signal, streamed = false, accept } = steps;
    const threadId = asThreadId(options.threadId ?? "default");
    const { input, extraKinds } = this.runValues(options);
    // Outputs past their age go before the lock (while a run holds the thread nothing expires, SPEC §8):
    // the plan is judged on what the thread holds as it starts, as `validate` judges it.
    await this.store.expireStale(threadId, this.options.retention);
    // a run cancelled while it waits for the thread gives up the wait (THREAD_BUSY): nothing is recorded
    // refused: the holder's run named when the store records it (decision 0104)
    const lock = await Promise.resolve(
      this.store.lockThread(threadId, {
        waitMs: this.options.lockWaitMs ?? 0,
        ...(signal === undefined ? {} : { signal }),
      }),
    ).catch(async (error: unknown) => {
      throw await withHolderRun(this.store, threadId, error);
    });
    try {
      const thread = await this.store.getThread(threadId);
      const context = await this.threadContext(threadId, thread, input, extraKinds);
      const told = resumed?.firstAutoIdNumber ?? (await toldCallNumber(this.store, threadId));
      const expectedFirst = told ?? 1;
      const verdict = (first: number, own?: ReadonlySet<string>): ValidationResult =>
        runVerdict(this.compile(plan, context, input, first, own), options, streamed);
      const numbered = await runNumbering(this.store, threadId, input.given, resumed, expectedFirst, verdict);
      const { validation: approved, numbering } = numbered;
      let validation = approved;
      const used = validation.compiled.autoIdsUsed;
      // A store that cannot tell the next number on a thread it holds: `accept` is asked once the numbers
      // are reserved, so that it is shown the call ids the run uses (a refusal then leaves them unused).
      const askAfterReserving =
        numbering === undefined && told === undefined && thread !== undefined && used > 0;
      // (the signal is the run's lease's whenever accept is given: runPlan passes both)
      const acceptSignal = (): AbortSignal => signal ?? new AbortController().signal;
      if (accept !== undefined && !askAfterReserving) await accept(validation, acceptSignal());
      const runId = await this.newRunId();
      // Opened (created, with the engine's state schema) only once the plan and the run id are accepted.
      await this.store.openThread(
        threadId,
        this.options.stateSchema === undefined ? undefined : { stateSchema: this.options.stateSchema },
      );
      let firstAutoIdNumber = used > 0 ? (numbering?.firstAutoIdNumber ?? expectedFirst) : undefined;
      if (used > 0 && numbering !== undefined)
        await reservePast(this.store, threadId, highestAutoIdNumber(validation.compiled.calls));
      if (used > 0 && numbering === undefined) {
        const first = await this.store.reserveCallNumbers(threadId, used);
        // Only when the store could not tell the number beforehand (or someone reserved in between): the
        // frozen plan again, held to what the first compile approved.
        if (first !== expectedFirst) {
          validation = runVerdict(this.compile(plan, context, input, first), options, false);
          if (validation.planHash !== approved.planHash)
            throw planNotApproved(validation.planHash, options.approvedHash ?? approved.planHash);
        }
        firstAutoIdNumber = first;
        if (accept !== undefined && (askAfterReserving || first !== expectedFirst))
          await accept(validation, acceptSignal());
      }
      const state = context.state as JsonObject;
      const compiled = validation.compiled;
      return { threadId, runId, input, state, compiled, lock, extraKinds, firstAutoIdNumber };
    } catch (error) {
      await releaseAfter(lock, error);
      throw error;
    }
  }

  /** The plan document as stored with the run (so `resume` can re-run it). */
  storedPlan(compiled: CompiledPlan, plan: unknown): JsonValue {
    // remembered: the store's copy of the run record takes this one as is
    const json = toJsonValue(compiled.document?.source ?? plan, { remember: true });
    return json.ok ? json.value : null;
  }

  /** An event hub with the engine's and the run's observers. */
  hub(observers: readonly (RunObserver | undefined)[]): EventHub {
    const hub = new EventHub();
    for (const observer of [this.options.onEvent, ...observers])
      if (observer !== undefined) hub.subscribe(observer);
    return hub;
  }

  /** After a run: retention (never during one), history pruning, then the state to report ({@link afterRun}). */
  afterRun(threadId: ThreadId): Promise<JsonObject> {
    return afterRun(this, threadId);
  }
}
