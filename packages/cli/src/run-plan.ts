import type { Engine, RunEvent, RunResult, ValidationResult } from "obelisk";
import type { CliIo } from "./cli-io.js";
import { withEngine } from "./engine-session.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import type { Output } from "./output.js";
import { createProgress, type Progress } from "./progress.js";
import { toProgressEvent } from "./progress-event.js";
import { renderRunResult } from "./render-run-result.js";

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

/** Executes `body` (which starts one run) with a live progress display, then prints the result. */
export async function runWithProgress(
  output: Output,
  io: CliIo,
  options: RunPlanOptions,
  body: (
    engine: Engine,
    start: (validation: ValidationResult, threadId: string) => void,
  ) => Promise<RunResult | ExitCode>,
): Promise<ExitCode> {
  let progress: Progress | undefined;
  const onEvent = (event: RunEvent): void => {
    const mapped = toProgressEvent(event);
    if (mapped !== undefined) progress?.handle(mapped);
  };
  const start = (validation: ValidationResult, threadId: string): void => {
    const calls = validation.compiled.calls.map((call) => ({ id: call.id, tool: call.tool }));
    output.line(
      `${output.colors.bold("Running")} ${calls.length} call${calls.length === 1 ? "" : "s"} on thread ${output.colors.bold(threadId)} ${output.colors.dim(`(plan ${validation.planHash.slice(0, 19)}…)`)}`,
    );
    progress = createProgress(output, calls);
  };
  const result = await withEngine({ ...options, onEvent }, io, async (engine) => {
    try {
      return await body(engine, start);
    } finally {
      progress?.stop();
    }
  });
  if (typeof result === "number") return result;
  output.json(result);
  renderRunResult(output, result);
  printWhatNext(output, result);
  return result.status === "succeeded" ? EXIT.ok : EXIT.failed;
}

function printWhatNext(output: Output, result: RunResult): void {
  const c = output.colors;
  const store = c.dim("[--store …]");
  output.line();
  output.line(c.dim(`inspect what was stored: obelisk state summary --thread ${result.threadId} ${store}`));
  const waiting = Object.values(result.calls).some((call) => call.status === "waiting");
  if (waiting) {
    output.line(
      c.dim("give an approval:        obelisk state set --ref †state.approvals.<name> --value true"),
    );
  }
}
