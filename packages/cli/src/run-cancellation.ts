import type { CliIo } from "./cli-io.js";
import { onStall } from "./on-stall.js";

/** The signal that cancels a run, and how to stop listening once it ended. */
export interface RunCancellation {
  /** Aborted by Ctrl-C, or when the run waits on a promise nothing can settle. */
  readonly signal: AbortSignal;
  /** Stops listening (the run ended). */
  dispose(): void;
}

/**
 * Cancels a run (its calls in flight are aborted, it ends `cancelled` and is recorded so: exit 1, and
 * `obelisk resume` finishes it) on Ctrl-C (SIGINT; a second one quits at once, exit 130), and when the event
 * loop empties while the run still waits: a tool's promise that nothing can settle. `callsInFlight` names
 * the calls started and not ended (`id (tool)`), for the line that says so on stderr.
 */
export function runCancellation(io: CliIo, callsInFlight: () => readonly string[]): RunCancellation {
  const controller = new AbortController();
  const interrupt = (): void => {
    if (controller.signal.aborted) process.exit(130);
    io.stderr.write("interrupted: cancelling the run (Ctrl-C again to quit at once)\n");
    controller.abort(new Error("interrupted (SIGINT)"));
  };
  const stalled = (): void => {
    if (controller.signal.aborted) return;
    io.stderr.write(`stalled: ${stalledCalls(callsInFlight())}: cancelling the run\n`);
    controller.abort(new Error("stalled: a promise never settled"));
  };
  process.on("SIGINT", interrupt);
  const removeStall = onStall(stalled);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", interrupt);
      removeStall();
    },
  };
}

function stalledCalls(calls: readonly string[]): string {
  const why = "(no timer, I/O or other work is left that could settle it)";
  if (calls.length === 0) return `the run waits on a promise that can never settle ${why}`;
  const waits = calls.length === 1 ? "call %s waits on a promise" : "calls %s wait on promises";
  return `${waits.replace("%s", calls.join(", "))} that can never settle ${why}`;
}
