import type { JsonObject, OutputPath, PlanHash } from "@obelisk/core";
import type { CallStatus, RecordedError } from "@obelisk/state";
import type { CallReport, CallStatusFacts } from "./runner-types.js";

/** Fields every event carries. */
interface EventBase {
  /** The run. */
  readonly runId: string;
  /**
   * The run's thread (the same string on every event of a run): an engine-wide observer of several threads
   * needs no map from `runId`.
   */
  readonly threadId: string;
  /** Milliseconds since the epoch (from the injected clock). */
  readonly at: number;
}

/** Fields of call events. */
interface CallEventBase extends EventBase {
  /** Call id. */
  readonly callId: string;
  /** Tool name. */
  readonly tool: string;
}

/** Events emitted while a run executes (STYLE §10). Observers cannot break a run. */
export type RunEvent =
  /** The run started. */
  | (EventBase & {
      readonly type: "run-start";
      readonly planHash: PlanHash;
      readonly calls: number;
      /**
       * Milliseconds from the host's request to this event (`RunnerOptions.requestedAt`): waiting for the
       * thread's lock and compiling the plan. Absent when the host gave no request time.
       */
      readonly queuedMs?: number;
      /**
       * The run this run resumes (`engine.resume(id)`: its record's `resumeOf`), absent for a run that resumes
       * none. A tracer links the two runs by it; the runs it ends get a `run-superseded` event before `run-end`.
       */
      readonly resumeOf?: string;
    })
  /** A call's references are decided and satisfied: it will be resolved, checked and dispatched. */
  | (CallEventBase & {
      readonly type: "call-ready";
      /**
       * The calls of this run it waited for, each once, in the order its references name them: the writers
       * of the paths it read (for `a || b`, of each alternative tried, up to the one taken). Empty when it
       * read nothing this run writes (input, or values the thread held before). For a tracer's span links.
       */
      readonly waitedFor: readonly string[];
    })
  /**
   * An attempt of a call starts: one event per attempt, the first and every retry. Satisfied and latent
   * calls, and calls that end before their tool is invoked, have none.
   */
  | (CallEventBase & {
      readonly type: "call-start";
      /** The number of the attempt starting now, 1-based (`ctx.attempt` of the tool). */
      readonly attempt: number;
      /** The resolved, frozen arguments. */
      readonly params: JsonObject;
    })
  /**
   * Attempt `attempt − 1` failed (threw or timed out) and the policy retries it: attempt `attempt` starts
   * after `delayMs`, with its own `call-start`, unless the run is aborted first (the call then ends
   * `cancelled` with `attempts` = `attempt − 1`).
   */
  | (CallEventBase & {
      readonly type: "call-retry";
      /** The number of the attempt that will start (1-based; 2 after the first attempt failed). */
      readonly attempt: number;
      /**
       * Milliseconds the runner waits before that attempt: the delay the tool's `shouldRetry` asked for, as
       * given (decision 0066), else the policy's backoff for it, capped at `maxDelayMs`, after jitter (a timer
       * cannot wait longer than 2^31 − 1 ms).
       */
      readonly delayMs: number;
      /** The error of the attempt that failed. */
      readonly error: RecordedError;
    })
  /**
   * A call reached its final status: exactly one per call of the run, on every path. Normally its record is
   * committed to the store first; on a fatal error (see `run-end`) the runner ends the calls without one
   * itself, and nothing of theirs is committed.
   */
  | CallEndEvent
  /** A state path was written (after the commit). */
  | (CallEventBase & { readonly type: "state-write"; readonly reference: string; readonly method: string })
  /**
   * An observer threw (or its promise rejected) on the event `eventType`; the run goes on. Delivered to the
   * other observers only, and never after `run-end` (a process warning then, see `EventHub`).
   */
  | (EventBase & {
      readonly type: "observer-error";
      readonly eventType: string;
      readonly error: RecordedError;
    })
  /**
   * This run ended an earlier run of its thread that had not ended (its process died, or `engine.close()`
   * interrupted it): one event per such run, after every `call-end` and before `run-end`, once that run's
   * record is `cancelled` (`at` is its record's `endedAt`). A resume ends the runs it continues (whatever its own status); a run that ran the
   * same plan to its end (`succeeded` or `failed`) ends the thread's `interrupted` runs of that plan. The
   * event belongs to this run (`runId`); the ended run is `supersededRunId`, so a tracer can close the span it
   * left open.
   */
  | (EventBase & {
      readonly type: "run-superseded";
      /** The run ended now: its record is `cancelled` from here on. */
      readonly supersededRunId: string;
      /** Its status now. */
      readonly status: "cancelled";
      /**
       * True when this run resumes it (it is `run-start.resumeOf` or a run that one resumed: its completed
       * calls are this run's `satisfied` ones); false when this run only ran the same plan again.
       */
      readonly resumed: boolean;
      /** Its recorded reason now (why it was interrupted; for `resumed: false` led by "superseded by run …"). */
      readonly reason?: string;
    })
  /**
   * The run ended: always the last event of a run, on every path (also after a fatal error), once every
   * call has had its `call-end`. An observer failure that can no longer be reported before it becomes a
   * process warning (`OBELISK_OBSERVER_ERROR`) instead of an `observer-error` event.
   */
  | (EventBase & {
      readonly type: "run-end";
      readonly status: "succeeded" | "failed" | "cancelled";
      readonly durationMs: number;
      /**
       * Set only when the run died of a fatal error (`status: "failed"`): the store failed (`STORE_ERROR`),
       * its thread lock was taken over (`THREAD_BUSY`), or the runner failed; the execution's promise
       * rejects with this error. Absent when calls failed but the run itself completed.
       */
      readonly error?: { readonly code: string; readonly message: string };
    });

/** A failed call's error in its `call-end` event: always with a code (`TOOL_ERROR` when the thrown error had none). */
export type CallEndError = RecordedError & { readonly code: string };

/** What a call-end's `status` decides: as {@link CallStatusFacts}, a failed call's error with its code. */
type CallEndFacts =
  | Exclude<CallStatusFacts<RecordedError>, { readonly status: "failed" }>
  | Extract<CallStatusFacts<CallEndError>, { readonly status: "failed" }>;

/**
 * The `call-end` event. Its `status` decides the rest, as in a run result's `CallOutcome`: `succeeded` and
 * `satisfied` may have `branch` (and `error` when a failure was routed to the last alternative); `failed`
 * always has `error` (with its `code`); `blocked`, `waiting`, `rejected`, `deferred` and `cancelled` always
 * have `reason`. Checking `status` narrows the type.
 */
export type CallEndEvent = CallEventBase &
  CallEndFacts & {
    readonly type: "call-end";
    readonly status: CallStatus;
    /** Attempts started (the `attempt` of the last `call-start`); 0 when the tool was never invoked. */
    readonly attempts: number;
    /** Milliseconds from the first attempt's start to the end; 0 when the tool was never invoked. */
    readonly durationMs: number;
    /**
     * The references the call wrote, as its run result entry's `wrote`: its `_outputPath` targets, or
     * `†calls.<id>` for an output stored under its id (no `state-write` event says that one); empty when it
     * wrote nothing (decision 0104).
     */
    readonly wrote: readonly string[];
    /**
     * The tool's name for the alternative written (its `outcomes[branch]`: what `branch(name, value)`
     * takes), when the tool declares outcomes.
     */
    readonly outcome?: string;
    /** That alternative's targets as the output path writes them (`†state.user`, `†state.a && †state.b`). */
    readonly branchPath?: string;
    /**
     * A `satisfied` call: the run whose record of the completed call satisfied it (an earlier run of the
     * thread, or, on resume, the run of the chain in which it had completed). A tracer links the span to
     * that run's.
     */
    readonly satisfiedBy?: string;
    /**
     * A `satisfied` call without `_id` and `_outputPath` whose value the thread holds as another call's
     * output: that call's id (`†calls.<outputId>`; nothing was stored under this call's, decision 0102).
     */
    readonly outputId?: string;
    /** True when the confirm hook's `modify` replaced the plan's parameters (the tool ran with the hook's). */
    readonly modified?: true;
  };

/** A `call-end` event without `runId`, `threadId` and `at` (which the runner adds), still narrowed by `status`. */
type CallEndInput = CallEndEvent extends infer E
  ? E extends unknown
    ? Omit<E, "runId" | "threadId" | "at">
    : never
  : never;

/** The event types, for exhaustive handling. */
export type RunEventType = RunEvent["type"];

/**
 * An observer of run events. It may be `async`: the promise it returns is not awaited (events stay in
 * order). A throw or a rejection is never fatal: it is reported as an `observer-error` event to the other
 * observers, or as a process warning when none of them took it (see `EventHub`).
 */
export type RunObserver = (event: RunEvent) => void;

/**
 * The `call-end` event of a call's report (without `runId`, `threadId` and `at`, which the runner adds): with a
 * `branch`, its `outcome` (from the tool's `outcomes`) and `branchPath` (from the call's output path).
 * Built only when an observer listens.
 */
export function callEndEvent(
  report: CallReport,
  outputPath: OutputPath | undefined,
  outcomes: readonly string[] | undefined,
): CallEndInput {
  const { callId, tool, status, attempts, durationMs, wrote, branch, reason, error, modified } = report;
  const satisfiedBy = report.status === "satisfied" ? report.satisfiedBy : undefined;
  const outputId = report.status === "satisfied" ? report.outputId : undefined;
  const outcome = branch === undefined ? undefined : outcomes?.[branch];
  const targets = branch === undefined ? undefined : outputPath?.alternatives[branch];
  return {
    type: "call-end",
    callId,
    tool,
    status,
    attempts,
    durationMs,
    wrote,
    ...(branch === undefined ? {} : { branch }),
    ...(outcome === undefined ? {} : { outcome }),
    ...(targets === undefined ? {} : { branchPath: targets.map((target) => target.text).join(" && ") }),
    ...(reason === undefined ? {} : { reason }),
    ...(error === undefined
      ? {}
      : { error: error.code === undefined ? { ...error, code: "TOOL_ERROR" } : error }),
    ...(satisfiedBy === undefined ? {} : { satisfiedBy }),
    ...(outputId === undefined ? {} : { outputId }),
    ...(modified === undefined ? {} : { modified }),
  } as CallEndInput;
}
