import { type CompileContext, type CompiledPlan, compile, type ToolRegistry } from "@obelisk/compiler";
import {
  asRunId,
  asThreadId,
  createKindTable,
  type Diagnostic,
  type JsonObject,
  type JsonValue,
  type KindTable,
  ObeliskError,
  planNotApproved,
  type RunId,
  type ThreadId,
  toJsonValue,
} from "@obelisk/core";
import { CallLimiter, EventHub, type RunObserver } from "@obelisk/scheduler";
import {
  DEFAULT_RETENTION,
  evictionAdvice,
  type RunLock,
  type StateStore,
  stateWrittenByCall,
  type ThreadInfo,
} from "@obelisk/state";
import type { RunAcceptor } from "./accepting-run.js";
import { ActiveRuns } from "./active-runs.js";
import { InputChecker, type SchemaSource } from "./check-input.js";
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
import { planInvalidError } from "./plan-invalid-error.js";
import { refuseRecordedRunId } from "./record-run.js";
import { checkRerunIds } from "./rerun-option.js";
import { warnAfterRun } from "./thrown-message.js";
import { withInputDiagnostics } from "./with-input-diagnostics.js";

/** A run's input and host values are known (a run has them; `validate` only when given). */
const KNOWN = Object.freeze({ input: true, context: true });
/** The host values of a run given no context: none. */
const NO_HOST_VALUES: HostContext = Object.freeze({});
/** No diagnostics (a plan read by no scoped kind). */
const NO_DIAGNOSTICS: readonly Diagnostic[] = Object.freeze([]);
/** The state of a thread the store does not hold yet. */
const EMPTY_STATE: JsonObject = Object.freeze({});

/** What a validated, locked run needs to start. */
export interface PreparedRun {
  readonly threadId: ThreadId;
  /** The run's id, new to the store. */
  readonly runId: RunId;
  readonly input: NormalizedInput;
  readonly state: JsonObject;
  readonly compiled: CompiledPlan;
  readonly lock: RunLock;
  /** The run's host-kind values, as a frozen JSON copy. */
  readonly extraKinds: HostContext | undefined;
  /** The first automatic id number the plan was compiled with (absent: the plan has no automatic ids). */
  readonly firstAutoIdNumber: number | undefined;
}

/** How {@link EngineRuntime.prepare} prepares a run beyond its options. */
export interface PrepareSteps {
  /** A resumed run is numbered as the original was (its numbers are reserved already). */
  readonly resumed?: ResumedNumbering;
  /** Gives up the wait for the thread (THREAD_BUSY), and is what `accept` is told to stop on. */
  readonly signal?: AbortSignal;
  /** A stream's calls resumed: references nothing among them writes fail their own call, not the plan. */
  readonly streamed?: boolean;
  /** Asked once the plan compiled valid and its approved hash matched, before the run id is taken. */
  readonly accept?: RunAcceptor;
}

/** A resumed run's numbering: the original run's first automatic id number and the call ids it recorded. */
export interface ResumedNumbering {
  readonly firstAutoIdNumber: number;
  readonly ownCallIds: ReadonlySet<string>;
}

/** `ids` without `except` (the same set when there is nothing to take out). */
function withoutIds(ids: ReadonlySet<string>, except: ReadonlySet<string> | undefined): ReadonlySet<string> {
  if (except === undefined || except.size === 0) return ids;
  const kept = new Set(ids);
  for (const id of except) kept.delete(id);
  return kept;
}

/**
 * The engine's kind table: host kinds are read-only data supplied per run (`RunOptions.context`); only
 * `†state` is written, and only by the engine, so a writable or engine-managed host kind is refused (USAGE)
 * instead of accepting writes that would be dropped.
 */
function engineKinds(extra: EngineOptions["kinds"]): KindTable {
  const table = createKindTable(extra ?? []);
  for (const info of extra ?? []) {
    if (info.writable || info.engineManaged) {
      const what = info.writable ? "writable" : "engine-managed";
      throw new ObeliskError(
        "USAGE",
        `kind "${info.kind}" cannot be ${what}: host kinds are read-only context`,
      );
    }
  }
  return table;
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

  /**
   * The compile context of a thread, given as the store holds it (`getThread`, read once by the caller;
   * undefined: the store holds no such thread, read as empty). Read, never opened: validating (or refusing
   * a run) leaves no thread behind (differential review F6). `known` says whether the run's input and
   * host-kind values are known (a run: always; `validate`: when given): a known context without a value for
   * a declared kind has none (`†env.x` is REF_UNRESOLVED, as at run time).
   */
  async threadContext(
    threadId: ThreadId,
    thread: ThreadInfo | undefined,
    input: NormalizedInput,
    extra: HostContext | undefined,
    known: { readonly input: boolean; readonly context: boolean } = KNOWN,
  ): Promise<CompileContext> {
    const inputKnown = known.input;
    const hostValues = extra ?? (known.context ? NO_HOST_VALUES : undefined);
    const stateSchema = this.options.stateSchema ?? thread?.stateSchema;
    if (thread === undefined) {
      return {
        state: EMPTY_STATE,
        ...(inputKnown ? { input: input.input } : {}),
        callOutputs: new Set(),
        ...(input.schema === undefined ? {} : { inputSchema: input.schema }),
        ...(stateSchema === undefined ? {} : { stateSchema }),
        ...(hostValues === undefined ? {} : { extraKinds: hostValues }),
        ...(this.kindScope === undefined ? {} : { mayRead: this.kindScope.mayRead }),
        callOutput: () => undefined,
        evicted: () => undefined,
      };
    }
    const state = await this.store.readState(threadId);
    const callOutputs = new Set(await this.store.listCallOutputIds(threadId));
    return {
      state,
      // Unknown (validate before the input exists): references into †input are judged by the schemas.
      ...(inputKnown ? { input: input.input } : {}),
      callOutputs,
      ...(input.schema === undefined ? {} : { inputSchema: input.schema }),
      ...(stateSchema === undefined ? {} : { stateSchema }),
      ...(hostValues === undefined ? {} : { extraKinds: hostValues }),
      ...(this.kindScope === undefined ? {} : { mayRead: this.kindScope.mayRead }),
      callOutput: (id) => this.storedOutput(threadId, id),
      writtenBy: this.writtenBy(threadId),
      evicted: (reference) => this.evictedAt(threadId, reference),
    };
  }

  /**
   * The `†state` references a call of an earlier run wrote through its `_outputPath`, by call id, when the
   * store answers at once: the compiler asks only for a `†calls.<id>` nothing else resolves, to name what
   * to read. The thread's variables are listed once per compile, on the first question (a plan with
   * thousands of such references would otherwise list them thousands of times).
   */
  private writtenBy(threadId: ThreadId): (id: string) => readonly string[] | undefined {
    let byCall: ReadonlyMap<string, readonly string[]> | null | undefined;
    return (id) => {
      if (byCall === undefined) {
        const variables = answerNow(() => this.store.listVariables(threadId));
        byCall = variables === undefined ? null : stateWrittenByCall(variables);
      }
      return byCall?.get(id);
    };
  }

  /**
   * The output stored under `†calls.<id>` when the store answers at once (see {@link answerNow}): the
   * compiler asks only for the stored outputs a plan reads, once each, so a thread's other (possibly large)
   * outputs are never loaded to compile.
   */
  private storedOutput(threadId: ThreadId, id: string): { readonly value: JsonValue } | undefined {
    const stored = answerNow(() => this.store.getCallOutput(threadId, id));
    return stored === undefined || !("value" in stored) ? undefined : { value: stored.value };
  }

  /**
   * "evicted at <time> (<reason>: <what to do>)" when the store answers at once that `reference` was evicted
   * (what to do: `evictionAdvice`).
   */
  private evictedAt(threadId: ThreadId, reference: string): string | undefined {
    const tombstone = answerNow(() => this.store.getTombstone(threadId, reference));
    return tombstone === undefined
      ? undefined
      : `evicted at ${tombstone.evictedAt} (${tombstone.reason}: ${evictionAdvice(tombstone)})`;
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
    await this.store.expireStale(threadId);
    const thread = await this.store.getThread(threadId);
    const context = await this.threadContext(threadId, thread, input, extraKinds, {
      input: inputKnown,
      context: options.context !== undefined,
    });
    const first = (await this.toldCallNumber(threadId)) ?? 1;
    const validation = this.compile(frozen, context, inputKnown ? input : undefined, first);
    keepRunShapesSoon();
    // one options object serves run and validate: validate refuses the rerun ids run would refuse
    const { rerun } = options as Pick<RunOptions, "rerun">;
    if (validation.ok) checkRerunIds(rerun, validation.compiled);
    return validation;
  }

  /**
   * The thread's next automatic id number when the store can tell it without reserving (undefined when it
   * cannot): a run compiles with it and then reserves, so a plan with automatic ids is compiled once, not
   * twice. Asking creates no thread (1 for a thread the store does not hold: decision 0022).
   */
  private async toldCallNumber(threadId: ThreadId): Promise<number | undefined> {
    const next = await this.store.nextCallNumber?.(threadId);
    return Number.isSafeInteger(next) && (next as number) > 0 ? (next as number) : undefined;
  }

  /**
   * Takes the lock, validates (PLAN_INVALID, PLAN_NOT_APPROVED), asks `steps.accept` and reserves automatic
   * id numbers; a resumed run is numbered as the original was (its numbers are reserved already). `plan`
   * was frozen when the engine was called: a second compile (the store could not tell the numbers it
   * reserves) reads that copy and is checked again, and `accept` is shown the compile that runs (0092).
   */
  async prepare(plan: FrozenPlan, options: RunOptions, steps: PrepareSteps = {}): Promise<PreparedRun> {
    const { resumed, signal, streamed = false, accept } = steps;
    const threadId = asThreadId(options.threadId ?? "default");
    const { input, extraKinds } = this.runValues(options);
    // Outputs past their age go before the lock (while a run holds the thread nothing expires, SPEC §8):
    // the plan is judged on what the thread holds as it starts, as `validate` judges it.
    await this.store.expireStale(threadId);
    // a run cancelled while it waits for the thread gives up the wait (THREAD_BUSY): nothing is recorded
    const lock = await this.store.lockThread(threadId, {
      waitMs: this.options.lockWaitMs ?? 0,
      ...(signal === undefined ? {} : { signal }),
    });
    try {
      const thread = await this.store.getThread(threadId);
      const context = await this.threadContext(threadId, thread, input, extraKinds);
      const told = resumed?.firstAutoIdNumber ?? (await this.toldCallNumber(threadId));
      const expectedFirst = told ?? 1;
      const approved = this.checked(
        this.compile(plan, context, input, expectedFirst, resumed?.ownCallIds),
        options,
        streamed,
      );
      let validation = approved;
      const used = validation.compiled.autoIdsUsed;
      // A store that cannot tell the next number on a thread it holds: `accept` is asked once the numbers
      // are reserved, so that it is shown the call ids the run uses (a refusal then leaves them unused).
      const askAfterReserving = told === undefined && thread !== undefined && used > 0;
      // (the signal is the run's lease's whenever accept is given: runPlan passes both)
      const acceptSignal = (): AbortSignal => signal ?? new AbortController().signal;
      if (accept !== undefined && !askAfterReserving) await accept(validation, acceptSignal());
      const runId = await this.newRunId();
      // Opened (created, with the engine's state schema) only once the plan and the run id are accepted.
      await this.store.openThread(
        threadId,
        this.options.stateSchema === undefined ? undefined : { stateSchema: this.options.stateSchema },
      );
      let firstAutoIdNumber = used > 0 ? expectedFirst : undefined;
      if (used > 0 && resumed === undefined) {
        const first = await this.store.reserveCallNumbers(threadId, used);
        // Only when the store could not tell the number beforehand (or someone reserved in between): the
        // frozen plan again, held to what the first compile approved.
        if (first !== expectedFirst) {
          validation = this.checked(this.compile(plan, context, input, first), options, false);
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

  /**
   * A compile's verdict for a run: PLAN_INVALID (a resumed stream's unresolved references apart: they fail
   * their own calls), PLAN_NOT_APPROVED when its hash is not `approvedHash`, and `rerun`'s ids checked.
   */
  private checked(validation: ValidationResult, options: RunOptions, streamed: boolean): ValidationResult {
    // A stream's calls are resumed as the stream ran them: a reference nothing among them writes fails
    // its own call REF_UNRESOLVED (as at close), the other calls run.
    let checked = validation;
    if (!checked.ok && streamed && onlyUnresolved(checked.diagnostics))
      checked = { ...checked, ok: true, compiled: runnable(checked.compiled) };
    if (!checked.ok) {
      const { ok, planHash, diagnostics } = checked;
      throw planInvalidError(diagnostics, { ok, planHash, diagnostics });
    }
    if (options.approvedHash !== undefined && options.approvedHash !== checked.planHash) {
      throw planNotApproved(checked.planHash, String(options.approvedHash));
    }
    checkRerunIds(options.rerun, checked.compiled);
    return checked;
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

  /** After a run: retention (never during one), history pruning, then the state to report. */
  async afterRun(threadId: ThreadId): Promise<JsonObject> {
    keepRunShapesSoon();
    // the run's end is recorded: a failing clock takes the real one (as endedAt), a failing retention is a
    // warning (it runs again after the next run), never an error for a run that has ended
    try {
      await this.store.applyRetention(
        threadId,
        this.options.retention ?? DEFAULT_RETENTION,
        new Date(this.endedAt()),
      );
    } catch (error) {
      warnAfterRun(`retention on thread ${JSON.stringify(threadId)}`, error);
    }
    await this.pruneHistory(threadId);
    return this.store.readState(threadId);
  }

  /**
   * The `history` option after a run, under its lock (decision 0075): the thread's oldest runs the policy
   * selects, at most a batch per run. A failure is a warning, as retention's: the next run prunes again.
   */
  private async pruneHistory(threadId: ThreadId): Promise<void> {
    const { history } = this.options;
    if (history === undefined || this.store.pruneHistory === undefined) return;
    try {
      await this.store.pruneHistory(threadId, history, new Date(this.endedAt()));
    } catch (error) {
      warnAfterRun(`history pruning on thread ${JSON.stringify(threadId)}`, error);
    }
  }
}

/** The compiled plan marked valid, its lazy `graph` getter kept as a getter (a spread would build it). */
function runnable(compiled: CompiledPlan): CompiledPlan {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(compiled)) as CompiledPlan;
  return Object.assign(copy, { ok: true });
}

/** True when every error among `diagnostics` is REF_UNRESOLVED (the run's calls decide those at run time). */
function onlyUnresolved(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.every(
    (diagnostic) => diagnostic.severity !== "error" || diagnostic.code === "REF_UNRESOLVED",
  );
}

/**
 * A store's answer when it gives one at once (the memory and SQLite stores do), else undefined: compile is
 * synchronous, so an asynchronous store's answer is "unknown" (no diagnostic), its promise handled, and a
 * store that throws is unknown too.
 */
function answerNow<T>(ask: () => T | Promise<T>): T | undefined {
  try {
    const answer = ask();
    if (!(answer instanceof Promise)) return answer;
    answer.catch(() => undefined);
  } catch {
    // unknown
  }
  return undefined;
}
