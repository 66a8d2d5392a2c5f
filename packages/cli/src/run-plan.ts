import { type Limits, ObeliskError } from "@obelisk/core";
import type { Engine, RunEvent, RunResult } from "obelisk";
import type { CliIo } from "./cli-io.js";
import { displayText } from "./display-text.js";
import { withEngine } from "./engine-session.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { type Output, reportError } from "./output.js";
import { createProgress, type Progress } from "./progress.js";
import { toProgressEvent } from "./progress-event.js";
import { renderRunResult } from "./render-run-result.js";
import type { GivenRetention } from "./retention-option.js";
import { runCancellation } from "./run-cancellation.js";
import { resumeCommand, whatNext } from "./what-next.js";

/** Options of a run or a resume. */
export interface RunPlanOptions {
  /** `run` (not `resume`): the end says how to run satisfied calls again (`--rerun`). */
  readonly offersRerun?: boolean | undefined;
  /** `--rerun` as given: `true` (every call of an idempotent tool) or the ids. */
  readonly rerun?: true | readonly string[] | undefined;
  /** `--tools`. */
  readonly tools: string;
  /** `--store`. */
  readonly store: string;
  /** `--retention`: the store's retention (decision 0109). */
  readonly retention?: GivenRetention | undefined;
  /** `--concurrency`. */
  readonly concurrency?: number | undefined;
  /** `--fail-fast`. */
  readonly failFast?: boolean | undefined;
  /** `--limits`. */
  readonly limits?: Partial<Limits> | undefined;
  /** `--lock-wait`. */
  readonly lockWait?: number | undefined;
  /** `--verbose`: print the stack of each error a tool throws (so does `OBELISK_DEBUG`). */
  readonly verbose?: boolean | undefined;
}

/**
 * Executes `body` (which starts one run, or returns an exit code without running) with a live
 * progress display driven by the engine's events, then prints the result. `check` (see `withEngine`)
 * may refuse the command first, on the store opened read-only: then nothing is created.
 */
export async function runWithProgress(
  output: Output,
  io: CliIo,
  options: RunPlanOptions,
  body: (engine: Engine, signal: AbortSignal) => Promise<RunResult | ExitCode>,
  check?: (engine: Engine) => Promise<ExitCode | undefined>,
): Promise<ExitCode> {
  let progress: Progress | undefined;
  const inFlight = new Map<string, string>();
  let uncaught = false;
  let runId: string | undefined;
  const stacks = options.verbose === true || Boolean(io.env.OBELISK_DEBUG);
  const onEvent = (event: RunEvent): void => {
    if (event.type === "call-start") inFlight.set(event.callId, event.tool);
    if (event.type === "call-end") inFlight.delete(event.callId);
    if (event.type === "run-start") {
      runId = event.runId;
      progress?.stop();
      printRunStart(output, event);
      progress = createProgress(output, event.calls);
      return;
    }
    const mapped = toProgressEvent(event, stacks);
    if (mapped !== undefined) progress?.handle(mapped);
  };
  // Signals and uncaught exceptions cancel the run only once it is about to start: before that (the tools
  // module loading, the check, the store opening) a signal ends the process at once (128 + its number) and
  // an uncaught exception stops the command (see bin.ts), creating no store and recording no run.
  const result = await withEngine(
    { ...options, storeAccess: "create", onEvent },
    io,
    async (engine) => {
      const cancellation = runCancellation(io, {
        calls: () => [...inFlight].map(([id, tool]) => `${id} (${tool})`),
        exited: (code, running) => {
          progress?.stop();
          reportError(
            io,
            output.format,
            toolExited(code, running, runId, { ...options, command: output.command }),
          );
        },
      });
      try {
        return await body(engine, cancellation.signal);
      } finally {
        uncaught = cancellation.uncaught();
        cancellation.dispose();
        progress?.stop();
      }
    },
    check,
  );
  if (typeof result === "number") return result;
  output.json(result);
  renderRunResult(output, result);
  output.line();
  for (const line of whatNext(result, { ...options, command: output.command }))
    output.line(output.colors.dim(line));
  // a tool's uncaught exception is a failure even when it came too late to cancel any call
  return result.status === "succeeded" && !uncaught ? EXIT.ok : EXIT.failed;
}

/**
 * The error reported when a tool called `process.exit(code)` during the run: the process ends there, the
 * run unfinished (left `running` in a store file, which `runs list` shows `interrupted`: `resume` finishes it).
 */
function toolExited(
  code: number,
  running: string,
  runId: string | undefined,
  options: RunPlanOptions & { readonly command: string },
): ObeliskError {
  const instead = "a tool returns its value or throws its error: it must not end the process";
  const left =
    runId === undefined
      ? undefined
      : options.store === "memory"
        ? `run ${runId} is lost with the memory store`
        : `run ${runId} is left unfinished (runs list shows it interrupted): ${resumeCommand(runId, options)} finishes it`;
  return new ObeliskError(
    "TOOL_ERROR",
    `a tool called process.exit(${code}) during the run${running}: the process ends here`,
    { hint: left === undefined ? instead : `${instead}; ${left}` },
  );
}

function printRunStart(output: Output, event: RunEvent & { type: "run-start" }): void {
  const c = output.colors;
  const calls = `${event.calls} call${event.calls === 1 ? "" : "s"}`;
  const resumes = event.resumeOf === undefined ? "" : `, resumes ${event.resumeOf}`;
  const plan = c.dim(`(plan ${event.planHash.slice(0, 19)}…, run ${event.runId}${resumes})`);
  output.line(`${c.bold("Running")} ${calls} on thread ${c.bold(displayText(event.threadId))} ${plan}`);
}
