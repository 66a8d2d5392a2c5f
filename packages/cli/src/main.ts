import { readFileSync } from "node:fs";
import { ObeliskError } from "@obelisk/core";
import { Command, CommanderError } from "commander";
import { cliCommand } from "./cli-command.js";
import { type CliIo, processIo } from "./cli-io.js";
import type { CommandContext } from "./command-context.js";
import { CommandStopped } from "./command-stop.js";
import { registerGraph } from "./commands/graph.js";
import { registerResume } from "./commands/resume.js";
import { registerRun } from "./commands/run.js";
import { registerRuns } from "./commands/runs.js";
import { registerSchema } from "./commands/schema.js";
import { registerState } from "./commands/state.js";
import { registerThreads } from "./commands/threads.js";
import { registerValidate } from "./commands/validate.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { formatAfterCommand } from "./format-after-command.js";
import { helpArguments, missingCommand, unknownCommand } from "./help-request.js";
import { unknownOptionMessage } from "./limits-option.js";
import { unknownLockWaitMessage } from "./lock-wait-option.js";
import { reportError, sniffFormat } from "./output.js";
import { refuseRepeatedFlags } from "./repeated-flag.js";
import { requireOptionsAfterArguments } from "./required-after-arguments.js";
import { usageError } from "./usage-error.js";

/** The CLI's version (from its package.json). */
export function cliVersion(): string {
  const url = new URL("../package.json", import.meta.url);
  return (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
}

/** Builds the `obelisk` program; commands report their exit code through `context.exit`. */
export function createProgram(context: CommandContext): Command {
  const program = new Command("obelisk")
    .description("Validate, run and inspect Obelisk plans")
    .version(cliVersion(), "-V, --version", "print the version")
    .showSuggestionAfterError(true)
    .addHelpText(
      "after",
      "\nEvery command takes --format text|json (json: exactly one JSON document on stdout, errors too), also\nbefore the command: obelisk --format json runs list. obelisk <command> --help lists a command's options.",
    );
  registerValidate(program, context);
  registerRun(program, context);
  registerGraph(program, context);
  registerSchema(program, context);
  registerState(program, context);
  registerRuns(program, context);
  registerThreads(program, context);
  registerResume(program, context);
  configure(program, context.io);
  return program;
}

/** True when the arguments are `--version` (or `-V`), repeated or after a command name: commander prints it. */
function asksVersionOnly(program: Command, args: readonly string[]): boolean {
  const isVersion = (arg: string) => arg === "--version" || arg === "-V";
  const commands = new Set(program.commands.map((command) => command.name()));
  const rest = args.filter((arg, at) => arg !== "--format" && args[at - 1] !== "--format");
  const others = rest.filter((arg) => !arg.startsWith("--format="));
  return others.some(isVersion) && others.every((arg) => isVersion(arg) || commands.has(arg));
}

function configure(command: Command, io: CliIo): void {
  command.exitOverride().configureOutput({
    writeOut: (text) => io.stdout.write(text),
    writeErr: () => {},
    outputError: () => {},
  });
  requireOptionsAfterArguments(command);
  refuseRepeatedFlags(command);
  for (const sub of command.commands) configure(sub, io);
}

/** Runs the CLI with the given arguments (without `node` and the script) and returns the exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<ExitCode> {
  const format = sniffFormat(argv);
  let exitCode: ExitCode = EXIT.ok;
  const program = createProgram({ io, exit: (code) => (exitCode = code) });
  const args = formatAfterCommand(program, argv);
  // json: the version too is one JSON document
  if (format === "json" && asksVersionOnly(program, args)) {
    io.stdout.write(`${JSON.stringify({ version: cliVersion() }, null, 2)}\n`);
    return EXIT.ok;
  }
  const command = cliCommand(io.env);
  const help = helpArguments(program, args, command);
  if (ObeliskError.is(help)) return reportError(io, format, help);
  try {
    await program.parseAsync(help ?? args, { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return EXIT.ok;
      const message = error.message.replace(/^error:\s*/, "");
      const usage =
        error.code === "commander.help"
          ? missingCommand(program, args, command)
          : error.code === "commander.unknownCommand"
            ? unknownCommand(program, args, command, message)
            : usageError(unknownLockWaitMessage(unknownOptionMessage(message)));
      return reportError(io, format, usage);
    }
    // already reported by the bin (an exception that escaped outside a run), with its exit code
    if (error instanceof CommandStopped) return EXIT.failed;
    return reportError(io, format, error);
  }
}
