import type { CompiledPlan, SpecFormTool, ToolDefinition, ToolRegistry } from "@obelisk/compiler";
import type {
  Diagnostic,
  JsonObject,
  JsonValue,
  LimitOverrides,
  Limits,
  ObeliskCode,
  PlanHash,
} from "@obelisk/core";
import type {
  AroundTool,
  CallStatusFacts,
  ConfirmDecision,
  ConfirmRequest,
  RunEvent,
  RunObserver,
  Timers,
  ToolAttemptInfo,
} from "@obelisk/scheduler";
import type {
  CallRecord,
  GetValueOptions,
  GetValueResult,
  HistoryPolicy,
  PruneRunsResult,
  RetentionPolicy,
  RunRecord,
  RunStatus,
  RunSummary,
  StateStore,
  SummarizeOptions,
  ThreadDeletion,
  VariableSummary,
} from "@obelisk/state";
import type { GetStateResult, GetWholeStateResult, StateKey } from "./typed-state.js";

/**
 * The code of a call's error: one of Obelisk's stable codes (`TIMEOUT`, `PARAM_INVALID`, …), or the
 * `code` a tool's own error carried (any string), so a `switch` over it needs a `default`.
 */
export type CallErrorCode = ObeliskCode | (string & {});

/** The error of a call in a run result: a stable code (or the tool's own) and a message. */
export interface CallError {
  /** Obelisk's code (`TIMEOUT`, `PARAM_INVALID`, …) or the `code` of the tool's own error. */
  readonly code: CallErrorCode;
  /** What went wrong. */
  readonly message: string;
}

/**
 * The outcome of one call in a run result (SPEC §10). Its `status` decides the rest: `succeeded` and
 * `satisfied` may have `branch` (and `error` when a failure was routed to the last alternative); `failed`
 * always has `error`; `blocked`, `waiting`, `rejected`, `deferred` and `cancelled` always have `reason`.
 * Checking `status` narrows the type, so `outcome.error.code` needs no `?.` once `status === "failed"`.
 */
export type CallOutcome = CallStatusFacts<CallError> & {
  /** Tool name. */
  readonly tool: string;
  /** Attempts made. */
  readonly attempts: number;
  /** Wall time from first start to end (0 when never dispatched). */
  readonly durationMs: number;
  /** References written. */
  readonly wrote: readonly string[];
  /**
   * True when the confirm hook answered `modify`: the tool ran with the hook's parameters, not the plan's
   * (the call record keeps both: `params` and `plannedParams`). Absent otherwise.
   */
  readonly modified?: true;
};

/** What `keepLastN` did: variables the thread holds now, and variables it evicted. */
export interface KeepLastNResult {
  /** Variables kept. */
  readonly kept: number;
  /** Variables evicted. */
  readonly evicted: number;
}

/** One failed call, as reported in `errors` (SPEC §7). */
export interface RunError {
  /** The failed call. */
  readonly callId: string;
  /** The call as submitted. */
  readonly call: JsonObject;
  /** What went wrong. */
  readonly error: CallError;
}

/**
 * The result of a run: exactly the JSON shape of SPEC §10. `State` types `state`: `JsonObject` by default;
 * `PartialState<S>` from an engine created with `createEngine<S>` (decision 0035).
 */
export interface RunResult<State = JsonObject> {
  /** Run id. */
  readonly runId: string;
  /** Thread id. */
  readonly threadId: string;
  /** Plan hash. */
  readonly planHash: PlanHash;
  /** `succeeded` when no call failed, `failed` otherwise, `cancelled` when aborted. */
  readonly status: Exclude<RunStatus, "running" | "interrupted">;
  /** Outcome per call id. */
  readonly calls: Readonly<Record<string, CallOutcome>>;
  /** Failed calls. */
  readonly errors: readonly RunError[];
  /** The thread's state after the run. */
  readonly state: State;
  /** Wall time of the run. */
  readonly durationMs: number;
}

/**
 * A diagnostic as the engine gives it: the compiler's, or one about the run's input (PARAM_INVALID: the
 * input breaks the plan's `inputSchema` or the Input message's schema), which also says where in the input.
 */
export interface EngineDiagnostic extends Diagnostic {
  /**
   * For an input that breaks a schema: a JSON Pointer into the input (`""` for the input itself; for an
   * Input message, into its `input`). `pointer` stays the breached keyword's place in the plan (`""` for
   * a schema that is not in the plan). Absent for every other diagnostic.
   */
  readonly inputPointer?: string;
}

/** The result of `validate` (SPEC §6), plus the compiled plan for programmatic use. */
export interface ValidationResult {
  /** No error diagnostics. */
  readonly ok: boolean;
  /** Plan hash to approve. */
  readonly planHash: PlanHash;
  /** Every diagnostic. */
  readonly diagnostics: readonly EngineDiagnostic[];
  /** The compiled plan (graph, calls). */
  readonly compiled: CompiledPlan;
}

/**
 * A kind the host declares: its name as written after `†` and, optionally, a description for hints. Host
 * kinds are read-only context given per run (`context: { user: … }`), so `writable` and `engineManaged`
 * may only be false.
 */
export interface HostKind {
  readonly kind: string;
  readonly description?: string | undefined;
  readonly writable?: false | undefined;
  readonly engineManaged?: false | undefined;
  /**
   * The parameters that may read the kind, by tool name (`{ callApi: ["auth"] }`): a plan reading it
   * anywhere else is `REF_KIND_FORBIDDEN` (decision 0073). Absent: any parameter of any tool may read it.
   */
  readonly readers?: Readonly<Record<string, readonly string[]>> | undefined;
}

/** Options of `createEngine`. Every option is documented with its default. */
export interface EngineOptions {
  /** Tools: an array or an object by name (defineTool results, plain objects or the spec's tool form). */
  readonly tools:
    | readonly (ToolDefinition | SpecFormTool)[]
    | Readonly<Record<string, ToolDefinition | SpecFormTool>>;
  /**
   * Implementations by tool name (SPEC §9), for tools given without `run`: the spec's tool form (a JSON
   * Schema with a `_tool` const), whose implementation is given separately. Each is a tool's `run`
   * (`(args, ctx) => value`). A tool without `run` or an implementation here is latent: its calls end
   * `deferred`. Refused (USAGE): a value that is not a function, a key that names no tool, and a key whose
   * tool has its own `run` (ambiguous). Default none.
   */
  readonly implementations?: Readonly<Record<string, NonNullable<ToolDefinition["run"]>>> | undefined;
  /** Store. Default: a new in-memory store. */
  readonly store?: StateStore | undefined;
  /** Global concurrency limit. Default unbounded. */
  readonly concurrency?: number | undefined;
  /** Limits on untrusted input. Default `DEFAULT_LIMITS`. */
  readonly limits?: LimitOverrides | undefined;
  /** Confirmation hook asked before each dispatch. Default: approve everything. */
  readonly confirm?: ((call: ConfirmRequest) => ConfirmDecision | Promise<ConfirmDecision>) | undefined;
  /**
   * Wraps each tool attempt: `(attempt, invoke) => context.with(…, invoke)` — call `invoke()` inside and
   * return what it returns. For an OpenTelemetry context, an AsyncLocalStorage or a log context that the
   * tool's own code must run in (its spans then nest under its call). A throw counts as the tool's.
   * Not called for calls that do not run (satisfied, latent, blocked, waiting). Default none.
   */
  readonly aroundTool?: AroundTool | undefined;
  /** Abort everything at the first unhandled failure. Default false. */
  readonly failFast?: boolean | undefined;
  /** Host-declared extra kinds (read-only data supplied per run): `[{ kind: "user", description: "the signed-in user" }]`. */
  readonly kinds?: readonly HostKind[] | undefined;
  /** Retention policy applied after each run. Default: 100 call outputs, 60 minutes. */
  readonly retention?: RetentionPolicy | undefined;
  /**
   * Run history pruned after each run, per thread, after retention (decision 0075): the thread's newest
   * `keepRuns` runs stay (default 1), and of the older ones those that ended more than `olderThanMs` ago go
   * (any age without it), at most 32 per run, oldest first — never a `running` or `interrupted` run, one
   * waiting for an approval that no run has resumed, nor one a still open resume continued. Default none:
   * history grows until `runs.prune`.
   */
  readonly history?: HistoryPolicy | undefined;
  /** Clock. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /** Random source in [0, 1) for retry jitter. Default `Math.random`. */
  readonly random?: (() => number) | undefined;
  /** Id generator for runs. Default `crypto.randomUUID`. */
  readonly generateId?: (() => string) | undefined;
  /** If a run's thread is busy: wait up to this many ms, then THREAD_BUSY. Default 0 (fail at once). */
  readonly lockWaitMs?: number | undefined;
  /**
   * JSON Schema of every thread's state (set on the thread when a run opens it). Default none.
   * `createEngine` also takes a zod schema here, converted to this JSON Schema once (decision 0035).
   */
  readonly stateSchema?: JsonObject | undefined;
  /** Observer of every run's events (an observer that throws is reported, never fatal). Default none. */
  readonly onEvent?: RunObserver | undefined;
  /** Timers for timeouts and retry delays. Default: the global timers (so fake timers apply). */
  readonly timers?: Timers | undefined;
}

export type { AroundTool, ConfirmDecision, ConfirmRequest, ToolAttemptInfo };

/** Options of one run. */
export interface RunOptions {
  /** Thread. Default `"default"`. */
  readonly threadId?: string | undefined;
  /**
   * The run's input: a plain object of JSON values, or an Input message (checked at run time, `USAGE`
   * otherwise). Typed `object` so that a value declared with an `interface` is accepted as it is.
   */
  readonly input?: object | undefined;
  /** When given, the plan's hash must equal it (PLAN_NOT_APPROVED otherwise). */
  readonly approvedHash?: string | undefined;
  /** Cancels the run. */
  readonly signal?: AbortSignal | undefined;
  /** Overrides the engine's failFast. */
  readonly failFast?: boolean | undefined;
  /**
   * Runs calls again that an identical completed call would make `satisfied` (SPEC §7), as `_rerun: true`
   * does — after fixing a tool, say: `true` for every call of an idempotent tool, or the ids of the calls
   * to run again (of any tool; an id the plan has not is USAGE, before anything is recorded). Does not
   * change the plan hash. `open` checks the ids only as strings (its calls come later); on `resume` a call
   * the resumed run completed stays satisfied (decision 0045). Default none.
   */
  readonly rerun?: boolean | readonly string[] | undefined;
  /** Values of host-declared extra kinds by kind (read as a frozen JSON copy; not JSON: USAGE). */
  readonly context?: object | undefined;
  /** Observer of this run's events (in addition to the engine's `onEvent`). */
  readonly onEvent?: RunObserver | undefined;
}

/** One thread of `threads.list`: its id, creation time, what it holds and its latest run. */
export interface ThreadListing {
  readonly threadId: string;
  /** ISO time the thread was created (opened or first written). */
  readonly createdAt: string;
  /** State variables and their bytes. */
  readonly variables: number;
  readonly variableBytes: number;
  /** Stored call outputs (`†calls.<id>`) and their bytes. */
  readonly callOutputs: number;
  readonly callOutputBytes: number;
  /** Runs recorded on the thread. */
  readonly runs: number;
  /** Its newest run (absent: no run, e.g. a thread only `set` wrote). */
  readonly lastRun?: Pick<RunRecord, "runId" | "status" | "startedAt" | "endedAt">;
}

/** Options of `runs.list` (see there). */
export interface RunListOptions {
  readonly threadId?: string | undefined;
  readonly limit?: number | undefined;
  readonly status?: RunStatus | undefined;
  readonly waiting?: true | undefined;
  readonly stale?: true | undefined;
  readonly before?: string | undefined;
  /** `false`: each run without its plan and input, with its call count (`RunSummary`, decision 0104). */
  readonly plans?: boolean | undefined;
}

/** Options of `threads.list`: a page of the threads in id order (decision 0104). */
export interface ThreadListOptions {
  /** At most this many threads (a whole number from 1; leave it out for all). */
  readonly limit?: number | undefined;
  /** A cursor: only the threads whose id sorts after this one (the last id of the page before). */
  readonly after?: string | undefined;
  /**
   * Only the threads idle since this time (epoch milliseconds or a `Date`; decision 0104, Amended): whose
   * newest run ended before it, or, with no run, that were created before it. A thread whose newest run is
   * still running is not idle; one left running by a process that died, or `interrupted`, ended at its last
   * recorded activity (start or last call's end). Host edits (`set`, `unset`) do not count. Pages as without it.
   */
  readonly idleSince?: number | Date | undefined;
}

/** Options of `validate`. */
export interface ValidateOptions {
  /**
   * Thread whose context (state, stored call outputs, state schema) the plan is checked against. Default
   * `"default"`, as `run`'s; a thread id that holds nothing checks the plan against an empty thread.
   */
  readonly threadId?: string | undefined;
  /**
   * The run's input (plain object or Input message). Absent: the input is unknown, as when a plan is
   * approved before its inputs exist; references into †input are then checked against the plan's
   * `inputSchema` only (a path is unresolved only when the schema certainly excludes it — decision 0018 —
   * and the types must fit), and without one not at all. Checked at run time like `RunOptions.input`.
   */
  readonly input?: object | undefined;
  /**
   * Values of host-declared extra kinds by kind. Absent: host kinds are unknown (not checked); given: a kind
   * it has no value for is `REF_UNRESOLVED`, as in a run.
   */
  readonly context?: object | undefined;
}

/** A run started with `start`: its events as an async iterator, and its result (`State`: as `RunResult`'s). */
export interface RunHandle<State = JsonObject> {
  /**
   * Every event of the run, ending after `run-end`. Iterate it right away (events are buffered from
   * creation), and once: a second iteration throws `USAGE` (more observers: `onEvent`).
   */
  readonly events: AsyncIterable<RunEvent>;
  /** The run result (rejects like `run`). */
  readonly result: Promise<RunResult<State>>;
}

/**
 * What `add` answers for one streamed call: accepted (`ok: true`, with its `callId`; it runs as soon as it
 * is ready) or refused (`ok: false`, no id), so `if (added.ok) added.callId` is a `string`. `diagnostics`:
 * this call's (warnings when accepted; a call closing a cycle is refused with CYCLE).
 */
export type AddResult =
  | {
      readonly ok: true;
      /** The call's id (its `_id`, or the automatic one it was given). */
      readonly callId: string;
      readonly diagnostics: readonly Diagnostic[];
    }
  | {
      readonly ok: false;
      readonly callId?: undefined;
      readonly diagnostics: readonly Diagnostic[];
    };

/** Options of `open`. */
export interface OpenOptions extends Omit<RunOptions, "approvedHash"> {
  /** JSON Schema of the input (a streamed plan has no document-level `inputSchema`). */
  readonly inputSchema?: JsonObject | undefined;
  /**
   * Closes the stream as `close()` would once this many ms pass without an `add` (from 1 to 2^31 - 1):
   * an abandoned stream then releases its thread. Its calls still running this many ms after that idle
   * close are aborted (the run ends `cancelled`; decision 0064). Default: none (the stream waits for `close()`).
   */
  readonly idleTimeoutMs?: number | undefined;
}

/** A streaming run (SPEC §7): calls are added one at a time as an LLM emits them (`State`: as `RunResult`'s). */
export interface StreamingRun<State = JsonObject> {
  /** Run id. */
  readonly runId: string;
  /**
   * Validates and wires one call; dispatches it as soon as it is ready. Once the run stopped (closed, its
   * signal, `engine.close()`, failFast at a failed call) throws USAGE with `data: { runId, stoppedBy, callId? }`.
   */
  add(call: unknown): AddResult;
  /** No more calls: unresolved references end as REF_UNRESOLVED errors; resolves when every call settled. */
  close(): Promise<RunResult<State>>;
  /** Every event of the run, ending after `run-end`; iterable once (a second iteration throws `USAGE`). */
  readonly events: AsyncIterable<RunEvent>;
}

/** What `get` found: see `GetValueResult` in `@obelisk/state` (nothing, the whole value, or a page). */
export type { GetValueResult };

/** What `get` without `offset`/`limit` finds: nothing, or the whole value (never a page). */
export type GetWholeValueResult = Extract<
  GetValueResult,
  { readonly found: false } | { readonly value: JsonValue }
>;

/** What `unset` did. */
export interface UnsetResult {
  /** True when something was removed; false when the path held nothing (nothing changed). */
  readonly removed: boolean;
  /**
   * The variables removed: the one at the path (with those below it), or, at a container only writes
   * below it created (`†state.approvals` after `set` of `†state.approvals.pay`), every variable below it.
   */
  readonly variables: readonly string[];
}

/** What `runs.cancel` did (decision 0043). */
export interface RunCancellation {
  /**
   * The runs it ended `cancelled`: the run asked for, then the runs of its resume chain still open; empty
   * when the run had already ended.
   */
  readonly cancelled: readonly string[];
  /** The run's record afterwards. */
  readonly run: RunRecord;
}

/** A run and its call records, as stored. */
export interface RunDetails {
  /** The run record. */
  readonly run: RunRecord;
  /** Its call records, in commit order. */
  readonly calls: readonly CallRecord[];
}

/**
 * The engine: the one object users need. `State` is the thread state's type as its reads give it:
 * `JsonObject` by default; `PartialState<S>` from `createEngine<S>({ stateSchema, … })` (decision 0035),
 * which types `RunResult.state` and `get` of `†state` and `†state.<key>`.
 */
export interface Engine<State = JsonObject> {
  /** The store in use. */
  readonly store: StateStore;
  /** The tool registry. */
  readonly registry: ToolRegistry;
  /** The limits plans and values are held to (`EngineOptions.limits` over `DEFAULT_LIMITS`). */
  readonly limits: Readonly<Limits>;
  /** Compiles a plan against a thread's context; no writes, no lock. */
  validate(plan: unknown, options?: ValidateOptions): Promise<ValidationResult>;
  /** Validates (PLAN_INVALID / PLAN_NOT_APPROVED / THREAD_BUSY are thrown) and executes one tick. */
  run(plan: unknown, options?: RunOptions): Promise<RunResult<State>>;
  /** Like `run`, with the events as an async iterator. */
  start(plan: unknown, options?: RunOptions): RunHandle<State>;
  /** Opens a streaming run (takes the thread lock until `close`). */
  open(options?: OpenOptions): Promise<StreamingRun<State>>;
  /**
   * Re-runs a recorded run's plan with its input on its thread (satisfied calls skip). RUN_NOT_FOUND when
   * unknown. The run's `context` (host-kind values) is not recorded: give it again in `options.context`.
   * A call that had completed in the resumed run restores only targets that are missing now: one a later
   * write changed (another run, `set`) is left as it is, the calls still to run read it so, and the call's
   * outcome (`satisfied`) says which in its `reason` (decision 0043). A run that cannot be resumed (the
   * plan no longer compiles: PLAN_INVALID) can be given up with `runs.cancel`.
   */
  resume(
    runId: string,
    options?: Omit<RunOptions, "threadId" | "input" | "approvedHash">,
  ): Promise<RunResult<State>>;
  /** Variables of a thread within a character budget (SPEC §8). */
  summarize(threadId: string, options?: SummarizeOptions): Promise<VariableSummary>;
  /** The whole state, `{ found: true, value }` (typed as `State` for a typed engine; JSON otherwise). */
  get(threadId: string, reference: "†state"): Promise<GetWholeStateResult<State>>;
  /**
   * One top-level key of a typed state (`†state.user`, the key a literal name): `{ found: false }`, or
   * `{ found: true, value }` with the key's type. Never chosen for the default `JsonObject` state.
   */
  get<Key extends StateKey<State>>(
    threadId: string,
    reference: `†state.${Key}`,
  ): Promise<GetStateResult<Exclude<State[Key], undefined>>>;
  /** A stored value, whole: `{ found: false }` or `{ found: true, value }`. */
  get(threadId: string, reference: string): Promise<GetWholeValueResult>;
  /**
   * A stored value, or one page of an array (items) or string (characters) when `offset` or `limit` is
   * given (on any other value: USAGE).
   */
  get(threadId: string, reference: string, options: GetValueOptions | undefined): Promise<GetValueResult>;
  /**
   * Writes one value by reference (how approvals are given). The value must be JSON (checked: `USAGE`
   * otherwise); typed `unknown` so that a value declared with an `interface` is accepted as it is.
   */
  set(
    threadId: string,
    reference: string,
    value: unknown,
    options?: { readonly description?: string | undefined },
  ): Promise<void>;
  /**
   * Removes one value by reference (how an approval is taken back), with `set`'s reference checks, under
   * the thread's lock like `set`: the variable at a `†state` path and those below it go the way eviction
   * removes them (tombstones with reason `unset`, parents only it created, an array element left as a
   * hole), recorded as a call `obelisk-unset$<n>`. A path that holds nothing answers `removed: false` and
   * changes nothing. USAGE for a path inside another variable's value; OUTPUT_SCHEMA_VIOLATION when the
   * thread's state schema needs the value; THREAD_BUSY while a run holds the thread.
   */
  unset(threadId: string, reference: string): Promise<UnsetResult>;
  /** Clears a thread's state and outputs. */
  reset(threadId: string): Promise<void>;
  /**
   * Keeps the n most recently updated variables (the others are evicted, SPEC §8) and says how many were
   * kept and evicted — counted under the thread's lock, so a run or edit elsewhere cannot skew them.
   */
  keepLastN(threadId: string, n: number): Promise<KeepLastNResult>;
  /** Run history. */
  readonly runs: {
    /**
     * Runs, newest first; `status` keeps one status (`interrupted`: the runs whose process stopped, or
     * whose engine was closed, before they ended, to `resume`; the built-in stores find a dead process's
     * among the `running` ones as they list). `waiting: true` keeps the runs with a call that ended
     * `waiting` (an approval gate, SPEC §7), of any status; USAGE for a store without `listWaitingRuns`.
     * `stale: true` (with `status: "running"`) keeps the `running` runs no live process holds: their
     * thread's lock holder sends no heartbeat for over its `staleMs` (hung or gone: another host's or
     * container's dead process is told only so), and `resume` or `runs.cancel` takes the lock over; USAGE
     * for a store without `lockHolder`. `limit` counts the runs kept. Decision 0068.
     * `before: runId` pages the history: only the runs recorded before that run, in this order — pass the
     * last run of a page to get the next; runs recorded meanwhile never shift it. RUN_NOT_FOUND when the
     * store does not hold that run (pruned or deleted since), USAGE when it is of another thread than
     * `threadId`. Decision 0074. `plans: false` answers each run without its plan and input, with its
     * call count (`RunSummary`): a page of a history of large plans or inputs (decision 0104).
     */
    list(options: RunListOptions & { readonly plans: false }): Promise<readonly RunSummary[]>;
    /** Runs with their plans and inputs (see the overload with `plans: false`). */
    list(options?: RunListOptions): Promise<readonly RunRecord[]>;
    /** One run with its call records; RUN_NOT_FOUND when unknown. */
    show(runId: string): Promise<RunDetails>;
    /**
     * Gives up an `interrupted` run without running anything (one that cannot be resumed: its tools were
     * renamed, its plan reads host kinds no longer given, or it should not run any more): it ends
     * `cancelled` with `reason` (default "given up without resuming", followed by why it was interrupted),
     * as the runs `resume` continues do, and with it the runs of its resume chain still open; it is not
     * listed `interrupted` again. Holds the thread's lock meanwhile (waiting up to `lockWaitMs`,
     * THREAD_BUSY while a run holds it). A run that has ended already is answered unchanged (`cancelled`
     * empty); RUN_NOT_FOUND when unknown. Decision 0043.
     */
    cancel(runId: string, options?: { readonly reason?: string | undefined }): Promise<RunCancellation>;
    /**
     * Removes finished runs (never a `running` one; a thread a run holds is left alone, in `busyThreads`) by
     * `keepLast` per thread and/or `olderThanMs`, with the call records nothing needs: a record whose
     * value the thread still holds stays, so its call is still `satisfied` when its plan is sent again; a
     * re-sent call whose value is gone runs again (decision 0029). USAGE for a store without `pruneRuns`.
     */
    prune(options: {
      readonly threadId?: string | undefined;
      readonly keepLast?: number | undefined;
      readonly olderThanMs?: number | undefined;
    }): Promise<PruneRunsResult>;
  };
  /** Threads. */
  readonly threads: {
    /**
     * Every thread the store holds, by id (code-unit order), with what it holds and its newest run; USAGE
     * for a store without `listThreads` (both built-in stores have it). `limit` and `after` (the last id of
     * the page before) page it: only the page's threads are read beyond their ids (decision 0104).
     */
    list(options?: ThreadListOptions): Promise<readonly ThreadListing[]>;
  };
  /**
   * Removes a thread entirely — state, variables, stored outputs, call records, runs, counters — waiting for
   * its lock up to the engine's `lockWaitMs` (THREAD_BUSY while a run holds it). Automatic call ids start
   * at 1 again, so `ctx.idempotencyKey`s of the old thread repeat. A thread the store does not hold answers
   * `deleted: false`. USAGE for a store without `deleteThread`.
   */
  deleteThread(threadId: string): Promise<ThreadDeletion>;
  /**
   * Stops the runs in flight (batch and streaming: their tools get the abort, their callers `cancelled`,
   * their records end `interrupted`, to resume: decision 0030), waits until each has finished, then closes
   * the store. Runs asked for afterwards: STORE_CLOSED.
   */
  close(): Promise<void>;
}
