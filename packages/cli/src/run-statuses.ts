import type { RunStatus } from "obelisk";

/**
 * Every run status, in the engine's order (`RUN_STATUSES` of `obelisk`): the CLI's own copy, so that
 * registering `runs list --status` (its help text and its parser) does not load the engine at start-up.
 * The record's type makes the set exactly `RunStatus` (a new status is a compile error here);
 * run-statuses.test.ts checks the order against the engine's list.
 */
const STATUSES: { readonly [status in RunStatus]: true } = {
  running: true,
  succeeded: true,
  failed: true,
  cancelled: true,
  interrupted: true,
};

/** Every run status, in the engine's order. */
export const RUN_STATUSES: readonly RunStatus[] = Object.freeze(Object.keys(STATUSES) as RunStatus[]);
