import type { CompiledCall, ToolRegistry } from "@obelisk/compiler";
import type { JsonObject, JsonValue, PlanHash } from "@obelisk/core";
import type { CallRecord, CallStatus, RecordedError, StateStore } from "@obelisk/state";
import type { AroundTool } from "./around-tool.js";
import type { CallLimiter } from "./call-limiter.js";
import type { ConfirmHook } from "./confirm-types.js";
import type { EventHub } from "./event-hub.js";
import type { Timers } from "./timers.js";

/** Options of one execution (a run of a compiled plan, or a streaming run). */
export interface RunnerOptions {
  /** The tools the plan was compiled against. */
  readonly registry: ToolRegistry;
  /** Where records, writes and outputs are committed. */
  readonly store: StateStore;
  /** Thread. */
  readonly threadId: string;
  /** Run id (the run record is created by the caller). */
  readonly runId: string;
  /** Plan hash (for events). */
  readonly planHash: PlanHash;
  /** The run's input (frozen by the runner). */
  readonly input: JsonValue;
  /** The thread's state snapshot at the start of the run (frozen). */
  readonly state: JsonObject;
  /** Values of host-declared kinds. */
  readonly extraKinds?: Readonly<Record<string, JsonValue>>;
  /** Remaining critical path of each call by id, for priority when calls compete for slots. */
  readonly criticalPaths?: ReadonlyMap<string, number>;
  /** Global concurrency limit. Default unbounded. Ignored when `limiter` is given. */
  readonly concurrency?: number;
  /**
   * Limits shared with other runs (an engine passes one, so its global and per-tool limits hold across
   * concurrent runs on different threads). Default: a limiter for this run alone from `concurrency` and
   * the tools' `concurrency`.
   */
  readonly limiter?: CallLimiter;
  /** Abort everything at the first unhandled failure. Default false. */
  readonly failFast?: boolean;
  /**
   * Calls to run even when an identical call completed on the thread before, as `_rerun: true` makes them
   * run (a host's choice, e.g. after fixing a tool): `true` for every call of an idempotent tool, or the ids
   * of the calls to run again (of any tool). A resumed call's own completed record still satisfies it
   * (decision 0045). Default none.
   */
  readonly rerun?: true | ReadonlySet<string>;
  /** Confirmation hook. Default: approve everything. */
  readonly confirm?: ConfirmHook;
  /** Wraps each tool attempt (tracing and log contexts). Default none. */
  readonly aroundTool?: AroundTool;
  /** Cancels the run: in-flight calls get the abort, the others end `cancelled`. */
  readonly signal?: AbortSignal;
  /** Timers for timeouts and retry delays. Default: the global timers. */
  readonly timers?: Timers;
  /** Clock in ms. Default `Date.now`. */
  readonly now?: () => number;
  /**
   * When the host was asked for the run (by `now`'s clock), before it waited for the thread's lock and
   * compiled: `run-start` then says how long that took (`queuedMs`).
   */
  readonly requestedAt?: number;
  /** Random source in [0, 1) (retry jitter). Default `Math.random`. */
  readonly random?: () => number;
  /** Max bytes of one output. Default `DEFAULT_LIMITS.maxValueBytes`. */
  readonly maxValueBytes?: number;
  /** Event observers. */
  readonly events?: EventHub;
  /** Streaming: calls are added one by one and `close()` ends the run. Default false (batch). */
  readonly streaming?: boolean;
  /**
   * The runs this run resumes (a resume chain): their records satisfy only the call with the same id,
   * as this run's own records do, so an unfinished call is never `satisfied` by an identical sibling's record.
   */
  readonly resumes?: ReadonlySet<string>;
  /** The run this run resumes (its record's `resumeOf`): `run-start` names it. */
  readonly resumeOf?: string;
  /** The latest completed record of each call id in that chain: a call is satisfied by its own first. */
  readonly resumedRecords?: ReadonlyMap<string, CallRecord>;
  /**
   * The latest `succeeded` or `satisfied` record of each call id in that chain: a call satisfied on resume
   * that had completed there (same key) restores only its missing targets, and leaves a target a later
   * write changed as it is (decision 0043).
   */
  readonly resumedSettled?: ReadonlyMap<string, CallRecord>;
}

/** Statuses of a call that did not run to an end of its own: each comes with a reason. */
export type ReasonedStatus = "blocked" | "waiting" | "rejected" | "deferred" | "cancelled";

/** The facts of a call that ran (or was satisfied): one member per status, so `!==` checks narrow too. */
interface CompletedFacts<S extends "succeeded" | "satisfied", E> {
  readonly status: S;
  /** Alternative written, when the output path has `||`. */
  readonly branch?: number;
  /** The error routed to the failure branch (the last alternative). */
  readonly error?: E;
  readonly reason?: undefined;
}

/**
 * A satisfied call's facts: as a succeeded call's, and a `reason` when a resume left targets of its recorded
 * write as they are because a write after its run changed them (decision 0043).
 */
interface SatisfiedFacts<E> extends Omit<CompletedFacts<"satisfied", E>, "reason"> {
  /** Which targets were left as a later write made them (a resumed call restores only missing ones). */
  readonly reason?: string;
  /** The run whose record of a completed call satisfied this one (that record's `runId`). */
  readonly satisfiedBy?: string;
  /**
   * A call without `_outputPath` and `_id` satisfied by another call's record whose output the thread still
   * holds: that call's id. The value is `†calls.<outputId>`; nothing was stored under this call's own id
   * (decision 0102: a re-sent plan's unnamed calls, numbered anew, store no copies).
   */
  readonly outputId?: string;
}

/**
 * What a call's status says about its other fields: a call that ran (or was satisfied) may carry the
 * alternative it wrote and an error routed to its failure branch; a failed call always has its error (and a
 * reason when it failed before dispatch); every other status has its reason and neither of the others.
 */
export type CallStatusFacts<E> =
  | CompletedFacts<"succeeded", E>
  | SatisfiedFacts<E>
  | {
      readonly status: "failed";
      readonly branch?: undefined;
      /** Why the call failed. */
      readonly error: E;
      /** Why the call could not run, when it failed before dispatch (an unresolved reference). */
      readonly reason?: string;
    }
  | {
      readonly status: ReasonedStatus;
      readonly branch?: undefined;
      readonly error?: undefined;
      /** Why the call is blocked / waiting / rejected / deferred / cancelled. */
      readonly reason: string;
    };

/** The final report of one call: its status decides which of `branch`, `error` and `reason` it has. */
export type CallReport = CallStatusFacts<RecordedError> & {
  /** Call id. */
  readonly callId: string;
  /** Tool name. */
  readonly tool: string;
  /** The call as submitted. */
  readonly call: JsonObject;
  /** Attempts made. */
  readonly attempts: number;
  /** Wall time from first start to end (0 when never dispatched). */
  readonly durationMs: number;
  /** References written (`†calls.<id>` for stored outputs). */
  readonly wrote: readonly string[];
  /** True when the confirm hook's `modify` replaced the plan's parameters (the tool ran with the hook's). */
  readonly modified?: true;
};

/** What an execution returns. */
export interface ExecutionResult {
  /** `succeeded` when no call failed, `failed` otherwise, `cancelled` when aborted. */
  readonly status: "succeeded" | "failed" | "cancelled";
  /** Reports in plan order. */
  readonly calls: readonly CallReport[];
  /** The working state at the end (equal to the committed state). */
  readonly state: JsonObject;
  /** Wall time. */
  readonly durationMs: number;
}

/** Runner-side bookkeeping of one call (every field set at creation: one shape, nothing grows later). */
export interface CallRun {
  /** The compiled call. */
  readonly call: CompiledCall;
  /** Resolved parameters, once dispatched (what the tool receives; a confirm hook's `modify` replaces them). */
  params: JsonObject | undefined;
  /**
   * `params` as the record and events show them, when that differs: every parameter that reads a host kind
   * as the plan wrote it (decision 0063). Undefined: `params` are shown as they are.
   */
  shownParams: JsonObject | undefined;
  /**
   * The plan's resolved parameters (as shown), when a confirm hook's `modify` replaced them: kept in the
   * record beside the modified ones, and the call's outcome says `modified`.
   */
  plannedParams: JsonObject | undefined;
  /**
   * Satisfied key, once computed; a succeeded call dispatched without it (`DispatchHost.hashLater`) leaves it
   * to the store (`CallCommit.callHashOf`).
   */
  hash: string | undefined;
  /** Attempts made. */
  attempts: number;
  /** Clock time of the first attempt. */
  startedAt: number | undefined;
  /** A completed result waiting for its commit. */
  pending: PendingResult | undefined;
  /** Set once the call's ending is being committed (guards double endings on cancellation). */
  ending: CallStatus | undefined;
  /** The final report. */
  report: CallReport | undefined;
}

/** A completed result waiting for its turn to be committed. */
export interface PendingResult {
  /** `succeeded` (tool or latent) or `satisfied` (recorded outcome re-applied). */
  readonly status: "succeeded" | "satisfied";
  /** Alternative written (undefined without an output path). */
  readonly alternative: number | undefined;
  /** The value. */
  readonly value: JsonValue | undefined;
  /** The error routed to the failure branch. */
  readonly error?: RecordedError;
  /** Satisfied calls: only these writes are re-applied. */
  readonly onlyMissing?: boolean;
  /** Satisfied calls without `_outputPath`: the thread still holds their output (not stored again). */
  readonly outputHeld?: boolean;
  /** Satisfied calls whose output the thread holds under another call's id: that id (see `outputId`). */
  readonly outputId?: string;
  /**
   * Satisfied calls that had completed in a run this one resumes: that run's id. Only their missing targets
   * are restored; one holding another value (a later write's) is left as it is and named in the reason.
   */
  readonly completedIn?: string;
  /** Satisfied calls: the run of the record that satisfied it (read from that record, no lookup). */
  readonly satisfiedBy?: string;
}
