import type { JsonObject } from "@obelisk/core";

/**
 * What the confirmation hook answers for a call about to be dispatched. `modify`'s params are taken as
 * literal values (re-validated against the tool's input schema; a `†` string in them is not resolved), and
 * `approve` takes no params (an approve with params is CONFIRM_ERROR: answer `modify` to change them).
 */
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
  /** True when the plan (`_rerun`) or the host (`rerun` run option) asks to run it even if an identical call completed before. */
  readonly rerun: boolean;
  /** Most attempts the call may make (the tool's retry policy, then the plan's `_retry`). */
  readonly attempts: number;
  /** Per-attempt timeout in ms (the plan's `_timeoutMs`, else the tool's), if any. */
  readonly timeoutMs?: number;
  /** The run and thread asking (for a person's approval screen). */
  readonly runId: string;
  readonly threadId: string;
  /**
   * Aborted when the run is cancelled: a hook waiting for a person can stop waiting (the call already ends
   * `cancelled`; a late answer is ignored). No timeout covers the hook: a hook that never answers holds the
   * call until the run is aborted.
   */
  readonly signal: AbortSignal;
}

/** The confirmation hook: asked for each ready call just before dispatch (never for satisfied calls). */
export type ConfirmHook = (call: ConfirmRequest) => ConfirmDecision | Promise<ConfirmDecision>;
