import type { CliIo } from "./cli-io.js";
import { displayText } from "./display-text.js";
import { EXIT } from "./exit-codes.js";
import { onProcessExit } from "./on-process-exit.js";
import { onStall } from "./on-stall.js";
import { onUncaught, type UncaughtKind } from "./on-uncaught.js";
import { errorMessage } from "./usage-error.js";

/** The calls of the run in flight, and who reports a tool's `process.exit` during it. */
export interface RunInFlight {
  /** The calls started and not ended (`id (tool)`), for the lines that say what was running. */
  calls(): readonly string[];
  /**
   * Reports, synchronously (the process is exiting: nothing asynchronous runs again), that a tool called
   * `process.exit(code)` while the run was in flight; `running` is ` (running: <calls>)` or empty.
   */
  exited(code: number, running: string): void;
}

/** The signal that cancels a run, and how to stop listening once it ended. */
export interface RunCancellation {
  /** Aborted by Ctrl-C (or SIGTERM, SIGHUP), a tool's uncaught error, or a promise nothing can settle. */
  readonly signal: AbortSignal;
  /** True once a tool's uncaught exception or unhandled rejection was heard (the command then exits 1). */
  uncaught(): boolean;
  /** Stops listening (the run ended). */
  dispose(): void;
}

/** The signals that cancel a run, with the exit code of a second one (128 + its number) and what it is. */
const SIGNALS = {
  SIGINT: { exitCode: 130, again: "Ctrl-C again to quit at once" },
  SIGTERM: { exitCode: 143, again: "SIGTERM again to quit at once" },
  SIGHUP: { exitCode: 129, again: "SIGHUP again to quit at once" },
} as const satisfies Record<string, { exitCode: number; again: string }>;

type CancelSignal = keyof typeof SIGNALS;

/**
 * Cancels a run (its calls in flight are aborted, it ends `cancelled` and is recorded so: exit 1, and
 * `obelisk resume` finishes it) on Ctrl-C (SIGINT), SIGTERM (`kill`, `timeout`, CI cancellation, `docker
 * stop`) and SIGHUP (the terminal closed) — a second one quits at once (exit 128 + the signal's number) —;
 * on an exception a tool throws outside its call's promise (in a timer callback) or a promise it rejects
 * and nobody handles; and when the event loop empties while the run still waits: a tool's promise that
 * nothing can settle. `inFlight.calls` names the calls started and not ended (`id (tool)`), for the line
 * that says so on stderr.
 *
 * A tool that calls `process.exit` during the run ends the process there and then: nothing can cancel or
 * record the run any more (it stays `running` in the store, shown `interrupted`). The process's `exit`
 * event is still heard: `inFlight.exited` reports it, and the exit code becomes 1 (a failed run), whatever
 * code the tool gave — an exit 0 would tell a script the run succeeded.
 */
export function runCancellation(io: CliIo, inFlight: RunInFlight): RunCancellation {
  const callsInFlight = inFlight.calls;
  const controller = new AbortController();
  // the CLI's own process.exit (a second signal) is no tool's
  let quitting = false;
  const interrupt = (name: CancelSignal): void => {
    if (controller.signal.aborted) {
      quitting = true;
      process.exit(SIGNALS[name].exitCode);
    }
    io.stderr.write(`interrupted (${name}): cancelling the run (${SIGNALS[name].again})\n`);
    controller.abort(new Error(`interrupted (${name})`));
  };
  const stalled = (): void => {
    if (controller.signal.aborted) return;
    io.stderr.write(`stalled: ${stalledCalls(callsInFlight())}: cancelling the run\n`);
    controller.abort(new Error("stalled: a promise never settled"));
  };
  let heard = false;
  const uncaught = (error: unknown, kind: UncaughtKind): void => {
    heard = true;
    const message = displayText(errorMessage(error));
    const action = controller.signal.aborted ? "" : ": cancelling the run";
    io.stderr.write(`error [TOOL_ERROR] a tool's ${kind}: ${message}${running(callsInFlight())}${action}\n`);
    if (!controller.signal.aborted) controller.abort(new Error(`a tool's ${kind}: ${message}`));
  };
  const listeners = Object.keys(SIGNALS).map((name) => {
    const listener = (): void => interrupt(name as CancelSignal);
    process.on(name, listener);
    return [name, listener] as const;
  });
  const exited = (code: number): void => {
    if (quitting) return;
    process.exitCode = EXIT.failed;
    inFlight.exited(code, running(callsInFlight()));
  };
  const removeExit = onProcessExit(exited);
  const removeStall = onStall(stalled);
  const removeUncaught = onUncaught(uncaught);
  return {
    signal: controller.signal,
    uncaught: () => heard,
    dispose: () => {
      for (const [name, listener] of listeners) process.off(name, listener);
      removeExit();
      removeStall();
      removeUncaught();
    },
  };
}

/** ` (running: <calls>)`, or nothing when no call is in flight. */
const running = (calls: readonly string[]): string =>
  calls.length === 0 ? "" : ` (running: ${calls.join(", ")})`;

function stalledCalls(calls: readonly string[]): string {
  const why = "(no timer, I/O or other work is left that could settle it)";
  if (calls.length === 0) return `the run waits on a promise that can never settle ${why}`;
  const waits = calls.length === 1 ? "call %s waits on a promise" : "calls %s wait on promises";
  return `${waits.replace("%s", calls.join(", "))} that can never settle ${why}`;
}
