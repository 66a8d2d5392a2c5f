import { type Limits, resolveLimits } from "@obelisk/core";
import type { Command } from "commander";
import type { Engine, RunResult } from "obelisk";
import { forCli } from "../cli-diagnostics.js";
import type { CommandContext } from "../command-context.js";
import {
  type CommonOptions,
  type ExecutionOptions,
  withExecution,
  withFormat,
  withStore,
  withTools,
} from "../common-options.js";
import type { ExitCode } from "../exit-codes.js";
import { withLimits } from "../limits-option.js";
import { withLockWait } from "../lock-wait-option.js";
import { createOutput } from "../output.js";
import { invalidPlanOf, reportInvalid } from "../report-invalid.js";
import { AFTER_RUN_ID, type RerunFlag, withRerun, withRerunFlagNamed } from "../rerun-flag.js";
import { withRunHints } from "../run-not-found-hint.js";
import { runWithProgress } from "../run-plan.js";

interface ResumeOptions extends Omit<CommonOptions, "thread">, ExecutionOptions {
  readonly tools: string;
  readonly limits?: Partial<Limits>;
  readonly lockWait?: number;
  readonly rerun?: RerunFlag;
}

/** Registers `obelisk resume <runId> --tools <module>`. */
export function registerResume(program: Command, context: CommandContext): void {
  const command = program
    .command("resume")
    .description("re-run a recorded run's plan with its input (satisfied calls are skipped)")
    .argument("<runId>", "the run to resume");
  withTools(command, true);
  withStore(command, false);
  withExecution(command);
  withRerun(
    command,
    AFTER_RUN_ID,
    "run again the calls still to run that an identical call of an earlier run satisfies (the run's own completed calls stay): every call of an idempotent tool, or the calls with these ids (give them after the run id)",
  );
  withLockWait(command);
  withLimits(command);
  withFormat(command);
  command.action(async (runId: string, options: ResumeOptions) => {
    const output = createOutput(context.io, options.format);
    const resume = async (engine: Engine, signal: AbortSignal): Promise<RunResult | ExitCode> => {
      try {
        const rerun = options.rerun === undefined ? {} : { rerun: options.rerun };
        return await withRerunFlagNamed(() =>
          withRunHints(
            options.store,
            output.command,
            () => engine.resume(runId, { signal, ...rerun }),
            engine,
          ),
        );
      } catch (error) {
        // a recorded plan that no longer compiles (the tools changed): its diagnostics, as `run` prints them
        const invalid = invalidPlanOf(error);
        if (invalid === undefined) throw error;
        const { run } = await engine.runs.show(runId);
        const limits = options.limits ?? {};
        return reportInvalid(
          output,
          forCli(invalid, undefined, resolveLimits(limits)),
          { name: `run ${runId}`, text: JSON.stringify(run.plan, null, 2), limits },
          undefined,
          false,
        );
      }
    };
    // an unknown run id (RUN_NOT_FOUND) is refused on the store opened read-only: a mistyped --store
    // is not created
    const check = async (engine: Engine): Promise<undefined> => {
      await withRunHints(options.store, output.command, () => engine.runs.show(runId));
      return undefined;
    };
    const code = await runWithProgress(output, context.io, options, resume, check);
    context.exit(code);
  });
}
