import { isBranchResult } from "@obelisk/compiler";
import type { RecordedError } from "@obelisk/state";
import type { AttemptContext } from "./attempt-context.js";
import { toRecordedError } from "./event-hub.js";
import type { InvokeOutcome } from "./invoke-request.js";
import { withThrownStack } from "./thrown-stack.js";

/** The outcome of an attempt whose returned value cannot be inspected (reading its `then` threw). */
export const unreadable = (attempts: number): InvokeOutcome => ({
  kind: "invalid",
  error: {
    name: "ObeliskError",
    code: "OUTPUT_NOT_JSON",
    message: "the tool returned a value that cannot be inspected (reading it threw)",
  },
  attempts,
});

/**
 * What an attempt returned, with a choice the tool made by calling `ctx.branch(k, value)` without returning
 * it (SPEC §3: "the implementation may pick another with `ctx.branch`"): nothing returned takes the choice;
 * a branch result returned wins; any other value beside a choice is BRANCH_INVALID (which one was meant?).
 */
export function returned(ctx: AttemptContext, value: unknown, attempts: number): InvokeOutcome {
  const chosen = ctx.chosen;
  if (chosen === undefined || isBranchResult(value)) return { kind: "returned", value, attempts };
  if (value === undefined) return { kind: "returned", value: chosen, attempts };
  return {
    kind: "invalid",
    error: {
      name: "ObeliskError",
      code: "BRANCH_INVALID",
      message: `the tool called ctx.branch(${JSON.stringify(chosen.alternative)}, …) but returned another value: return ctx.branch(…)'s result, or nothing`,
    },
    attempts,
  };
}

/** The outcome of an attempt that threw `error`. */
export function threw(error: unknown, attempts: number): InvokeOutcome {
  const recorded = withThrownStack(toRecordedError(error, "TOOL_ERROR"), error);
  return { kind: "threw", error: recorded, attempts, thrown: error };
}

/** A `TIMEOUT` outcome: the attempt's signal is aborted with the timeout's error, which is the outcome's too. */
export function timedOut(
  controller: AbortController | undefined,
  timeoutMs: number | undefined,
  attempts: number,
): InvokeOutcome {
  const error: RecordedError = {
    name: "TimeoutError",
    message: `timed out after ${timeoutMs} ms`,
    code: "TIMEOUT",
  };
  const thrown = Object.assign(new Error(error.message), { name: error.name, code: "TIMEOUT" });
  controller?.abort(thrown);
  return { kind: "threw", error, attempts, thrown };
}
