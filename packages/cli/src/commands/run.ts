import { type Limits, planNotApproved, resolveLimits } from "@obelisk/core";
import { type Command, InvalidArgumentError, Option } from "commander";
import type { Engine, RunResult, ValidationResult } from "obelisk";
import pc from "picocolors";
import { cliCommand } from "../cli-command.js";
import { forCli } from "../cli-diagnostics.js";
import type { CommandContext } from "../command-context.js";
import {
  type CommonOptions,
  type ExecutionOptions,
  withExecution,
  withFormat,
  withInput,
  withStore,
  withTools,
} from "../common-options.js";
import type { ExitCode } from "../exit-codes.js";
import { largeInputInstead, withLimits, withValueLimitHint } from "../limits-option.js";
import { withLockWait } from "../lock-wait-option.js";
import { createOutput } from "../output.js";
import { parseInput } from "../parse-input.js";
import { readPlanFile } from "../read-plan.js";
import { renderDiagnosticsText } from "../render-diagnostics.js";
import { printDiagnostics, printVerdict } from "../render-validation.js";
import { invalidPlanOf, reportInvalid } from "../report-invalid.js";
import { AFTER_PLAN, type RerunFlag, withRerun, withRerunFlagNamed } from "../rerun-flag.js";
import { runWithProgress } from "../run-plan.js";

interface RunCommandOptions extends CommonOptions, ExecutionOptions {
  readonly tools: string;
  readonly approved?: string;
  readonly limits?: Partial<Limits>;
  readonly lockWait?: number;
  readonly rerun?: RerunFlag;
}

/** Registers `obelisk run <plan> --tools <module>`. */
export function registerRun(program: Command, context: CommandContext): void {
  const command = program
    .command("run")
    .description("validate a plan, then execute one tick on a thread (invalid plans are not run)")
    .argument("<plan>", "plan file (JSON), or - to read the plan from standard input");
  withTools(command, true);
  withInput(command);
  withStore(command);
  withExecution(command).addOption(
    new Option("--approved <hash>", "refuse to run unless the plan hash equals this approved hash").argParser(
      (value) => parseApprovedHash(value, cliCommand(context.io.env)),
    ),
  );
  withRerun(
    command,
    AFTER_PLAN,
    "run again the calls an identical earlier call satisfies (same tool and parameters): every call of an idempotent tool, or the calls with these ids (give them after the plan file)",
  );
  withLockWait(command);
  withLimits(command);
  withFormat(command);
  command.action(async (plan: string, options: RunCommandOptions) => {
    context.exit(await runCommand(plan, options, context));
  });
}

async function runCommand(
  planPath: string,
  options: RunCommandOptions,
  { io }: CommandContext,
): Promise<ExitCode> {
  const output = createOutput(io, options.format);
  const limits = options.limits ?? {};
  const plan = await readPlanFile(planPath, io, limits);
  const input = parseInput(options.input, io.cwd, {
    maxValueBytes: resolveLimits(limits).maxValueBytes,
    instead: largeInputInstead(output.command),
  });
  // any JSON the user gave: the engine refuses what is not a plain object (USAGE, exit 2)
  const withInputOption = input === undefined ? {} : { input: input.value as object };
  const invalid = (validation: ValidationResult): ExitCode =>
    reportInvalid(output, forCli(validation, input, resolveLimits(limits), true), plan, input);
  // Checked on the store opened read-only: an invalid plan, a hash that is not the approved one, or an
  // input the engine refuses create no store file and no thread row.
  const check = async (engine: Engine): Promise<ExitCode | undefined> => {
    const found = await engine
      .validate(plan.text, { threadId: options.thread, ...withInputOption })
      .catch((error: unknown) => {
        if (input === undefined) throw error;
        throw withValueLimitHint(
          error,
          input.value,
          resolveLimits(limits),
          largeInputInstead(output.command),
        );
      });
    if (!found.ok) return invalid(found);
    const validation = forCli(found, input, resolveLimits(limits), true);
    if (options.approved !== undefined && options.approved !== validation.planHash)
      throw planNotApproved(validation.planHash, options.approved);
    if (validation.diagnostics.length > 0) {
      printDiagnostics(output, validation, plan, input);
      printVerdict(output, validation);
      // json: stdout holds only the run result; the warnings (REF_SUSPICIOUS…) go to stderr as in text
      if (output.format === "json") {
        const text = renderDiagnosticsText(validation, plan, pc.createColors(false), input);
        io.stderr.write(`${text.trimEnd()}\n`);
      }
    }
    return undefined;
  };
  const run = async (engine: Engine, signal: AbortSignal): Promise<RunResult | ExitCode> => {
    try {
      return await withRerunFlagNamed(() =>
        engine.run(plan.text, {
          threadId: options.thread,
          signal,
          ...withInputOption,
          ...(options.approved === undefined ? {} : { approvedHash: options.approved }),
          ...(options.failFast === undefined ? {} : { failFast: options.failFast }),
          ...(options.rerun === undefined ? {} : { rerun: options.rerun }),
        }),
      );
    } catch (error) {
      const refused = invalidPlanOf(error);
      if (refused !== undefined) return invalid(refused);
      throw error;
    }
  };
  return runWithProgress(output, io, { ...options, limits, offersRerun: true }, run, check);
}

/**
 * A `--approved` value: a plan hash as `obelisk validate` prints it (`command`: how that starts), `sha256:`
 * and 64 hex digits.
 */
function parseApprovedHash(value: string, command: string): string {
  if (/^sha256:[0-9a-f]{64}$/.test(value)) return value;
  const [, prefix, digits] = /^(sha256:)?([0-9a-f]{64})$/i.exec(value) ?? [];
  if (digits !== undefined && prefix === undefined)
    throw new InvalidArgumentError(`add the sha256: prefix: sha256:${digits.toLowerCase()}`);
  if (digits !== undefined)
    throw new InvalidArgumentError(`a plan hash is written in lower case: sha256:${digits.toLowerCase()}`);
  throw new InvalidArgumentError(
    `expected a plan hash, sha256:<64 hex digits>, as ${command} validate prints it`,
  );
}
