import { ObeliskError, thrownMessage } from "@obelisk/core";

/**
 * What reaches a run's caller from below it: an `Error` as it is; any other thrown value — a custom store's
 * `throw null` or rejected string — as STORE_ERROR, its message from the value and the value as `cause`.
 */
export function asThrownError(error: unknown): unknown {
  if (error instanceof Error) return error;
  return new ObeliskError(
    "STORE_ERROR",
    `a non-Error value was thrown (by the store): ${thrownMessage(error)}`,
    {
      cause: error,
      hint: "a StateStore's methods must throw or reject with an Error; see engine.runs.show(runId) for the run's record",
    },
  );
}

/** The process warning code for a step after a run's end was recorded that failed (retention, superseding). */
const AFTER_RUN_WARNING_CODE = "OBELISK_AFTER_RUN_ERROR";

/**
 * Reports a failure after the run's end is recorded as a process warning: the run's result stands, as its
 * record says (a thrown error would invite running non-idempotent work a second time).
 */
export function warnAfterRun(step: string, error: unknown): void {
  process.emitWarning(`${step} failed after the run's end was recorded: ${thrownMessage(error)}`, {
    code: AFTER_RUN_WARNING_CODE,
  });
}
