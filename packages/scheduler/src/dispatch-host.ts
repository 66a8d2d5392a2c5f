import type { CompiledCall, RegisteredTool } from "@obelisk/compiler";
import type { Awaitable, CallRecord } from "@obelisk/state";
import type { CallEnding } from "./call-record.js";
import type { OperandFilter } from "./resolve-params.js";
import type { RunnerSettings } from "./runner-settings.js";
import type { CallRun, PendingResult } from "./runner-types.js";
import type { WorkingContext } from "./working-context.js";

/** What dispatching needs from the runner. */
export interface DispatchHost {
  readonly options: RunnerSettings;
  readonly context: WorkingContext;
  /** Which operands hold a value for this run (fallbacks skip the others). */
  readonly operands: OperandFilter;
  /** True once the run is aborted (cancelled or failFast). */
  readonly aborted: boolean;
  /** Why the run was aborted. */
  readonly abortReason: string;
  /** The run's signal (aborted with the run). */
  readonly signal: AbortSignal;
  /** Ends a call without a result (failed, deferred, rejected, cancelled). */
  end(index: number, ending: CallEnding): void;
  /**
   * True when a completed record may satisfy `call`: one of an earlier run (SPEC §7), or of this run or a
   * run it resumes only when `call` wrote it (an identical sibling's record is not this call's work).
   */
  mayReuse(record: CallRecord, call: CompiledCall): boolean;
  /** Takes a completed record for one call of this run: false when another call took it already. */
  claim(record: CallRecord): boolean;
  /**
   * True when calls of `tool` need no hash at dispatch: the store fills a record's hash in later and held no
   * succeeded record of the tool on the thread when this run first asked (a record of this run satisfies
   * only its own call, so none committed since can satisfy another).
   */
  hashLater(tool: string): boolean;
  /** Hands a completed result to the decision core (committed in order). */
  complete(index: number, pending: PendingResult): void;
  /**
   * Invokes the tool under the concurrency limits and hands the outcome to `onInvoked` before the
   * call's slot is given back, so the calls its result makes ready are queued (and ranked) by then.
   */
  invoke(index: number, run: CallRun, tool: RegisteredTool): Awaitable<void>;
}
