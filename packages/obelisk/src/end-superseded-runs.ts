import type { PlanHash, RunId, ThreadId } from "@obelisk/core";
import type { EventHub } from "@obelisk/scheduler";
import type { RunStatus } from "@obelisk/state";
import type { EngineRuntime } from "./engine-runtime.js";
import { type EndedRun, endCrashedRuns, type ResumeChain, supersedeInterrupted } from "./resume-chain.js";
import { warnAfterRun } from "./thrown-message.js";

/** A run whose record has just been finished, before its `run-end` is let out. */
export interface FinishedRun {
  readonly runId: RunId;
  readonly threadId: ThreadId;
  readonly planHash: PlanHash;
  /** The status recorded. */
  readonly status: RunStatus;
  /** The chain it resumes, when it is a resume. */
  readonly resumed: ResumeChain | undefined;
}

/**
 * Ends the earlier runs `run` supersedes, and emits a `run-superseded` event for each (before `run-end`, so a
 * tracer fed by events alone closes what they left open): a resume's chain, still `running` or
 * `interrupted`, whatever the resume's own status; and, when `run` ran to its end (`succeeded` or `failed`),
 * the thread's `interrupted` runs of the same plan. A store failure here is a process warning: the run's
 * result stands.
 */
export async function endSupersededRuns(
  runtime: EngineRuntime,
  run: FinishedRun,
  events: EventHub,
): Promise<void> {
  const endedAt = (): string => runtime.endedAt();
  if (run.resumed !== undefined) {
    const continued = await endCrashedRuns(runtime.store, run.resumed, endedAt).catch((error: unknown) =>
      afterRunWarning("marking the resumed runs cancelled", error),
    );
    emitSuperseded(events, run, continued, true);
  }
  if (run.status !== "succeeded" && run.status !== "failed") return;
  const ending = { ...run, resumes: run.resumed?.runIds };
  const replaced = await supersedeInterrupted(runtime.store, ending, endedAt).catch((error: unknown) =>
    afterRunWarning("marking the interrupted runs this run superseded", error),
  );
  emitSuperseded(events, run, replaced, false);
}

function afterRunWarning(step: string, error: unknown): EndedRun[] {
  warnAfterRun(step, error);
  return [];
}

/** One `run-superseded` event per ended run, timed by its recorded end. */
function emitSuperseded(
  events: EventHub,
  run: FinishedRun,
  ended: readonly EndedRun[],
  resumed: boolean,
): void {
  if (events.idle) return;
  for (const { runId, reason, endedAt } of ended)
    events.emit({
      type: "run-superseded",
      runId: run.runId,
      threadId: run.threadId,
      at: Date.parse(endedAt),
      supersededRunId: runId,
      status: "cancelled",
      resumed,
      ...(reason === undefined ? {} : { reason }),
    });
}
