import type { ObeliskError } from "@obelisk/core";
import type { Culprit } from "./effect-culprit.js";
import type { EventHub } from "./event-hub.js";
import { fatalEndEvents } from "./fatal-end-events.js";
import type { CallRun } from "./runner-types.js";

/** The run a fatal end is emitted for. */
export interface FatalRun {
  readonly runId: string;
  readonly threadId: string;
  /** Clock time of `run-start`. */
  readonly startedAt: number;
  /** The run's clock (ms). */
  readonly now: () => number;
}

/**
 * Emits the events of a fatal end (see {@link fatalEndEvents}) to `hub`: a `call-end` for each call
 * without one, then `run-end`; a clock that throws too gives them the run's start time.
 */
export function emitFatalEnd(
  hub: EventHub,
  runs: readonly CallRun[],
  run: FatalRun,
  failure: ObeliskError,
  culprit: Culprit,
): void {
  let at: number;
  try {
    at = run.now();
  } catch {
    at = run.startedAt;
  }
  const culprits = culprit === undefined ? [] : typeof culprit === "number" ? [culprit] : culprit;
  const ending = {
    runId: run.runId,
    threadId: run.threadId,
    at,
    startedAt: run.startedAt,
    failure,
    culprits,
  };
  for (const event of fatalEndEvents(runs, ending)) hub.emit(event);
}
