import type { CompiledPlan, ToolDefinition } from "@obelisk/compiler";
import type { Diagnostic, JsonObject, JsonValue, KindInfo, Limits, PlanHash } from "@obelisk/core";
import type { CallStatus, RetentionPolicy, RunStatus, StateStore } from "@obelisk/state";

/** The outcome of one call in a run result (SPEC §10). */
export interface CallOutcome {
  /** Tool name. */
  readonly tool: string;
  /** Final status. */
  readonly status: CallStatus;
  /** Alternative written, when the output path has `||`. */
  readonly branch?: number;
  /** Attempts made. */
  readonly attempts: number;
  /** Wall time from first start to end (0 when never dispatched). */
  readonly durationMs: number;
  /** References written. */
  readonly wrote: readonly string[];
  /** Why the call is blocked / waiting / rejected / deferred / cancelled. */
  readonly reason?: string;
  /** The error of a failed call, or the one routed to the failure branch. */
  readonly error?: { readonly code: string; readonly message: string };
}

/** One failed call, as reported in `errors` (SPEC §7). */
export interface RunError {
  /** The failed call. */
  readonly callId: string;
  /** The call as submitted. */
  readonly call: JsonObject;
  /** What went wrong. */
  readonly error: { readonly code: string; readonly message: string };
}

/** The result of a run: exactly the JSON shape of SPEC §10. */
export interface RunResult {
  /** Run id. */
  readonly runId: string;
  /** Thread id. */
  readonly threadId: string;
  /** Plan hash. */
  readonly planHash: PlanHash;
  /** `succeeded` when no call failed, `failed` otherwise, `cancelled` when aborted. */
  readonly status: Exclude<RunStatus, "running">;
  /** Outcome per call id. */
  readonly calls: Readonly<Record<string, CallOutcome>>;
  /** Failed calls. */
  readonly errors: readonly RunError[];
  /** The thread's state after the run. */
  readonly state: JsonObject;
  /** Wall time of the run. */
  readonly durationMs: number;
}

/** The result of `validate` (SPEC §6), plus the compiled plan for programmatic use. */
export interface ValidationResult {
  /** No error diagnostics. */
  readonly ok: boolean;
  /** Plan hash to approve. */
  readonly planHash: PlanHash;
  /** Every diagnostic. */
  readonly diagnostics: readonly Diagnostic[];
  /** The compiled plan (graph, calls). */
  readonly compiled: CompiledPlan;
}

/** What the confirmation hook answers for a call about to be dispatched. */
export type ConfirmDecision =
  | { readonly action: "approve" }
  | { readonly action: "modify"; readonly params: JsonObject }
  | { readonly action: "reject"; readonly reason: string };

/** The call shown to the confirmation hook. */
export interface ConfirmRequest {
  /** Call id. */
  readonly callId: string;
  /** Tool name. */
  readonly tool: string;
  /** Resolved parameters. */
  readonly params: JsonObject;
  /** Canonical output path, if any. */
  readonly outputPath?: string;
}

/** Options of `createEngine`. Every option is documented with its default. */
export interface EngineOptions {
  /** Tools: an array or an object by name (defineTool results, plain objects or the spec's tool form). */
  readonly tools: readonly ToolDefinition[] | Readonly<Record<string, ToolDefinition>>;
  /** Store. Default: a new in-memory store. */
  readonly store?: StateStore;
  /** Global concurrency limit. Default unbounded. */
  readonly concurrency?: number;
  /** Limits on untrusted input. Default `DEFAULT_LIMITS`. */
  readonly limits?: Partial<Limits>;
  /** Confirmation hook asked before each dispatch. Default: approve everything. */
  readonly confirm?: (call: ConfirmRequest) => ConfirmDecision | Promise<ConfirmDecision>;
  /** Abort everything at the first unhandled failure. Default false. */
  readonly failFast?: boolean;
  /** Host-declared extra kinds (read-only data supplied per run). */
  readonly kinds?: readonly KindInfo[];
  /** Retention policy applied after each run. Default: 100 call outputs, 60 minutes. */
  readonly retention?: RetentionPolicy;
  /** Clock. Default `Date.now`. */
  readonly now?: () => number;
  /** Random source in [0, 1) for retry jitter. Default `Math.random`. */
  readonly random?: () => number;
  /** Id generator for runs. Default `crypto.randomUUID`. */
  readonly generateId?: () => string;
  /** If a run's thread is busy: wait up to this many ms, then THREAD_BUSY. Default 0 (fail at once). */
  readonly lockWaitMs?: number;
}

/** Options of one run. */
export interface RunOptions {
  /** Thread. Default `"default"`. */
  readonly threadId?: string;
  /** The run's input (plain object or Input message). */
  readonly input?: JsonValue;
  /** When given, the plan's hash must equal it (PLAN_NOT_APPROVED otherwise). */
  readonly approvedHash?: string;
  /** Cancels the run. */
  readonly signal?: AbortSignal;
  /** Overrides the engine's failFast. */
  readonly failFast?: boolean;
  /** Values of host-declared extra kinds. */
  readonly context?: Readonly<Record<string, JsonValue>>;
}
