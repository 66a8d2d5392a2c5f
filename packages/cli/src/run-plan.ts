import type { Engine, RunEvent, RunResult } from "obelisk";
import type { CliIo } from "./cli-io.js";
import { withEngine } from "./engine-session.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import type { Output } from "./output.js";
import { createProgress, type Progress } from "./progress.js";
import { toProgressEvent } from "./progress-event.js";
import { renderRunResult } from "./render-run-result.js";
import { whatNext } from "./what-next.js";

/** Options of a run or a resume. */
export interface RunPlanOptions {
  /** `--tools`. */
  readonly tools: string;
  /** `--store`. */
  readonly store: string;
  /** `--concurrency`. */
  readonly concurrency?: number | undefined;
  /** `--fail-fast`. */
  readonly failFast?: boolean | undefined;
}

/**
 * Executes `body` (which starts one run, or returns an exit code without running) with a live
 * progress display driven by the engine's events, then prints the result.
 */
export async function runWithProgress(
  output: Output,
  io: CliIo,
  options: RunPlanOptions,
  body: (engine: Engine, signal: AbortSignal) => Promise<RunResult | ExitCode>,
): Promise<ExitCode> {
  let progress: Progress | undefined;
  const interrupt = onInterrupt(io);
  const onEvent = (event: RunEvent): void => {
    if (event.type === "run-start") {
      progress?.stop();
      printRunStart(output, event);
      progress = createProgress(output, event.calls);
      return;
    }
    const mapped = toProgressEvent(event);
    if (mapped !== undefined) progress?.handle(mapped);
  };
  const result = await withEngine({ ...options, storeAccess: "create", onEvent }, io, async (engine) => {
    try {
      return await body(engine, interrupt.signal);
    } finally {
      progress?.stop();
      interrupt.dispose();
    }
  });
  if (typeof result === "number") return result;
  output.json(result);
  renderRunResult(output, result);
  output.line();
  for (const line of whatNext(result, options.store, options.tools)) output.line(output.colors.dim(line));
  return result.status === "succeeded" ? EXIT.ok : EXIT.failed;
}

function printRunStart(output: Output, event: RunEvent & { type: "run-start" }): void {
  const c = output.colors;
  const calls = `${event.calls} call${event.calls === 1 ? "" : "s"}`;
  const plan = c.dim(`(plan ${event.planHash.slice(0, 19)}…, run ${event.runId})`);
  output.line(`${c.bold("Running")} ${calls} on thread ${c.bold(event.threadId)} ${plan}`);
}

/**
 * Ctrl-C (SIGINT) while a run executes cancels it: calls in flight are aborted, the run ends `cancelled`
 * and is recorded as such (exit 1). A second Ctrl-C quits at once (exit 130).
 */
function onInterrupt(io: CliIo): { readonly signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const listener = (): void => {
    if (controller.signal.aborted) process.exit(130);
    io.stderr.write("interrupted: cancelling the run (Ctrl-C again to quit at once)\n");
    controller.abort(new Error("interrupted (SIGINT)"));
  };
  process.on("SIGINT", listener);
  return { signal: controller.signal, dispose: () => process.off("SIGINT", listener) };
}
