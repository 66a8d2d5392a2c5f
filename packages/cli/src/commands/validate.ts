import type { Command } from "commander";
import type { CommandContext } from "../command-context.js";
import { DEFAULT_THREAD, withCheckedThread, withFormat, withInput, withTools } from "../common-options.js";
import { EXIT, type ExitCode } from "../exit-codes.js";
import { limitsWords, withLimits } from "../limits-option.js";
import { DEFAULT_STORE } from "../open-store.js";
import { createOutput } from "../output.js";
import { type PlanCheckOptions, validatePlanFile } from "../read-plan.js";
import { withPlanPositions } from "../render-diagnostics.js";
import { printCheckedAgainst, printDiagnostics, printVerdict } from "../render-validation.js";
import { shellWord } from "../shell-word.js";

/** Registers `obelisk validate <plan> --tools <module>`. */
export function registerValidate(program: Command, context: CommandContext): void {
  const command = program
    .command("validate")
    .description("compile a plan and print its diagnostics, plan hash and graph summary")
    .argument("<plan>", "plan file (JSON), or - to read the plan from standard input");
  withTools(command, true);
  withInput(command);
  withCheckedThread(command);
  withLimits(command);
  withFormat(command);
  command.action(async (plan: string, options: PlanCheckOptions) => {
    context.exit(await validateCommand(plan, options, context));
  });
}

async function validateCommand(
  planPath: string,
  options: PlanCheckOptions,
  { io }: CommandContext,
): Promise<ExitCode> {
  const output = createOutput(io, options.format);
  const { plan, input, result, against, inputNeeded } = await validatePlanFile(planPath, options, io, true);
  const { printGraphSummary, validationJson } = await import("../render-graph-summary.js");
  // only json builds the graph (a valid plan of 1,000 writers and 1,000 readers has a million edges)
  // json: each diagnostic with its line and column in the plan file, as text prints them
  if (output.format === "json")
    output.json(validationJson({ ...result, diagnostics: withPlanPositions(result, plan) }));
  printDiagnostics(output, result, plan, input);
  printVerdict(output, result);
  printCheckedAgainst(output, against);
  printGraphSummary(output, result);
  if (result.ok) {
    output.line();
    output.line(
      output.colors.dim(
        `approve and run it with: ${output.command} ${runCommandLine(planPath, options, result.planHash, inputNeeded)}`,
      ),
    );
    // a run without --input runs with {}, which this plan's †input references refuse
    if (inputNeeded !== undefined)
      output.line(
        output.colors.dim(
          "(the run needs an input: put it in place of … — without --input the run is refused)",
        ),
      );
    if (STANDARD_INPUT.test(planPath))
      output.line(
        output.colors.dim("(the plan came from standard input: send it the same plan again, < plan.json)"),
      );
    // the hash binds the plan only (SPEC §8): a reader of the line above took it for an approval of --input too
    if (options.input !== undefined)
      output.line(
        output.colors.dim(
          "(the hash approves the plan, not the input: the same --approved runs it with any --input)",
        ),
      );
  }
  return result.ok ? EXIT.ok : EXIT.failed;
}

/** A plan read from standard input: `-`, or its name (`validate /dev/stdin < plan.json`: a regular file then). */
const STANDARD_INPUT = /^(?:-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;

/**
 * The `run` words that run exactly this plan, with the same input, store, thread and limits (a plan from
 * standard input: `run -`, to be sent the plan again); with `inputNeeded`, the `--input` to fill in.
 */
function runCommandLine(
  planPath: string,
  options: PlanCheckOptions,
  planHash: string,
  inputNeeded: string | undefined,
): string {
  const words = ["run", STANDARD_INPUT.test(planPath) ? "-" : planPath, "--tools", options.tools ?? ""];
  if (options.input !== undefined) words.push("--input", options.input);
  else if (inputNeeded !== undefined) words.push("--input", inputNeeded);
  if (options.store !== DEFAULT_STORE) words.push("--store", options.store);
  if (options.thread !== undefined && options.thread !== DEFAULT_THREAD)
    words.push("--thread", options.thread);
  words.push(...limitsWords(options.limits));
  words.push("--approved", planHash);
  return words.map(shellWord).join(" ");
}
