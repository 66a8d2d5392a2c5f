import { cutText, type ObeliskError } from "@obelisk/core";
import type { CallEndError, RunEvent } from "./run-event.js";
import type { CallRun } from "./runner-types.js";

/** Most characters of the fatal error's message kept in the cancelled calls' reason. */
const REASON_MESSAGE_CHARS = 200;

/** How a run died: what {@link fatalEndEvents} needs beside its calls. */
export interface FatalEnding {
  readonly runId: string;
  /** Its thread (every event of a run carries it). */
  readonly threadId: string;
  /** Clock time of the end (every event of it carries this time). */
  readonly at: number;
  /** Clock time of `run-start`. */
  readonly startedAt: number;
  /** The error the run's result rejects with. */
  readonly failure: ObeliskError;
  /** Indexes of the calls the failure hit (their commit or dispatch threw). */
  readonly culprits: readonly number[];
}

/**
 * The last events of a run a fatal error ended: a `call-end` for each call without a report (`failed`
 * with the error for the culprits, `cancelled` with `run failed (<code>): <message>` for the others, in
 * plan order), then `run-end` with status `failed` and the error's code and message.
 */
export function fatalEndEvents(runs: readonly CallRun[], ending: FatalEnding): RunEvent[] {
  const { runId, threadId, at, failure, culprits } = ending;
  const { code, message } = failure;
  const error: CallEndError = { name: "ObeliskError", code, message };
  const reason = `run failed (${code}): ${cutText(message, REASON_MESSAGE_CHARS)}`;
  const events: RunEvent[] = [];
  for (let index = 0; index < runs.length; index++) {
    const run = runs[index] as CallRun;
    if (run.report !== undefined) continue;
    const base = {
      type: "call-end",
      runId,
      threadId,
      at,
      callId: run.call.id,
      tool: run.call.tool,
      attempts: run.attempts,
      durationMs: run.startedAt === undefined ? 0 : Math.max(0, at - run.startedAt),
      wrote: [],
    } as const;
    events.push(
      culprits.includes(index)
        ? { ...base, status: "failed", error }
        : { ...base, status: "cancelled", reason },
    );
  }
  const durationMs = Math.max(0, at - ending.startedAt);
  events.push({
    type: "run-end",
    runId,
    threadId,
    at,
    status: "failed",
    durationMs,
    error: { code, message },
  });
  return events;
}
