import type { CompiledCall, WriterLink } from "@obelisk/compiler";
import type { Reference } from "@obelisk/core";
import type { CallStatus } from "@obelisk/state";

/** What the decision core must know about the context: does a reference exist right now? */
export interface ContextProbe {
  /** True when the referenced value exists in the working copy of the context. */
  exists(reference: Reference): boolean;
}

/** Options of the decision core. */
export interface DecisionCoreOptions {
  /** Existence checks against the runner's working copy. */
  readonly probe: ContextProbe;
  /** True for batch runs: no more calls will be added, unclaimed references are decided at once. Default true. */
  readonly closed?: boolean;
  /** In-plan writers of a reference read by `call`. Default: `call.writers.get(reference.text) ?? []`. */
  readonly writersOf?: (call: CompiledCall, reference: Reference) => readonly WriterLink[];
  /** Streaming: the writer link of `writer` for `reference` when it claims the path (late claim), else undefined. */
  readonly claims?: (writer: CompiledCall, reference: Reference) => WriterLink | undefined;
  /**
   * The rank of the call at a plan index (its critical path): the calls one event makes ready are
   * dispatched highest rank first, ties in the order they became ready. Default: the order they became ready.
   */
  readonly rank?: (index: number) => number;
}

/** How a call settled, as the core needs it to decide its dependents. */
export interface SettleInfo {
  /** Final status. */
  readonly status: CallStatus;
  /** The alternative written (succeeded / satisfied calls with an output), if any. */
  readonly alternative?: number | undefined;
}

/** An effect decided by the core, performed by the runner. */
export type CoreEffect =
  /** Every reference of the call is decided and satisfied: resolve, check, confirm and run it. */
  | { readonly type: "dispatch"; readonly index: number }
  /** A reference cannot be satisfied: settle the call without running it. */
  | {
      readonly type: "unsatisfied";
      readonly index: number;
      readonly status: "blocked" | "waiting" | "cancelled";
      readonly reason: string;
      readonly code?: undefined;
    }
  /** The call cannot run for a reason that is an error of the run (a failure): settle it failed. */
  | {
      readonly type: "unsatisfied";
      readonly index: number;
      readonly status: "failed";
      readonly reason: string;
      readonly code: "REF_UNRESOLVED" | "OUTPUT_WRITE_FAILED";
    }
  /** The call's result may be committed now (accumulating writers are committed in plan order). */
  | { readonly type: "commit"; readonly index: number }
  /** Every call has settled and no more will be added. */
  | { readonly type: "finish" };
