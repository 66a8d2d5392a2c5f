#!/usr/bin/env node
import type { CliStream } from "./cli-io.js";
import { processIo } from "./cli-io.js";
import { markEscaped } from "./command-stop.js";
import { EXIT } from "./exit-codes.js";
import { reserveStdoutForJson } from "./json-stdout.js";
import { importedToolsModule } from "./load-tools.js";
import { main } from "./main.js";
import { onProcessExit } from "./on-process-exit.js";
import { onStall } from "./on-stall.js";
import { onUncaught } from "./on-uncaught.js";
import { reportError, sniffFormat } from "./output.js";
import { guardStdio } from "./stdio-guard.js";
import { toolsModuleExited } from "./tools-module-exit.js";
import { errorMessage } from "./usage-error.js";

const argv = process.argv.slice(2);
const format = sniffFormat(argv);
// In json format stdout holds exactly one JSON document: whatever else is printed goes to stderr.
// A closed or failing stdout or stderr (`obelisk … | head`) drops what is written to it, and the command
// goes on to its end (a run finishes and is recorded); its exit code is the command's.
const stdio = guardStdio(format === "json" ? reserveStdoutForJson(processIo()) : processIo());
// Whether the command wrote to stdout, and whether it may still: once an exception escaped outside a run
// and was reported, nothing more is printed (in json the error document is the one document).
let wroteStdout = false;
let stopped = false;
const stdout: CliStream = {
  write(text: string) {
    if (stopped) return false;
    wroteStdout = true;
    return stdio.io.stdout.write(text);
  },
  get isTTY() {
    return stdio.io.stdout.isTTY === true;
  },
};
const io = { ...stdio.io, stdout };
// The exit code at least: 1 once an exception escaped outside a run, whatever the command returns.
let atLeast: number = EXIT.ok;
// The bin's own exit (and the end of a stalled command) is no tools module's; the command's exit code, once
// main returned.
let exiting = false;
let commandCode: number | undefined;
const quit = (code: number): void => {
  exiting = true;
  process.exit(code);
};

// A tools module's process.exit once it has loaded, outside a run (a timer it left running): the command
// ends where it stands, and the module's code (0 for process.exit()) would tell a script it succeeded. One
// line naming the module (in json, also the error document, unless the command's own was printed), exit
// code 1 (or the command's, when it ended with a higher one). Its load and a run in flight hear their own
// (load-tools.ts: USAGE, run-cancellation.ts: the run), as inner handlers.
onProcessExit((code) => {
  const module = importedToolsModule();
  if (exiting || module === undefined) return;
  process.exitCode = Math.max(commandCode ?? EXIT.ok, atLeast, EXIT.failed);
  reportError(io, wroteStdout ? "text" : format, toolsModuleExited(module, code, commandCode !== undefined));
});

// The last word when the event loop empties while the command still waits and no wait inside it (a run,
// a tools module loading) ended it: say so (exit 1) instead of Node's silent exit 13.
const stalled = onStall(() => {
  const error = new Error("the command could not finish: it waits on a promise that can never settle");
  process.exitCode = reportError(io, format, error);
  exiting = true;
});
// An exception a tools module throws outside a run (a run cancels itself: run-cancellation.ts), while it
// loads or after the run: one line (in json, also the error document, unless the command's own document
// was printed), no stack trace, exit 1. The command stops where it stands (command-stop.ts: no store is
// opened, no run started) and the process exits once the output is written.
onUncaught((error, kind) => {
  if (stopped) return;
  atLeast = EXIT.failed;
  markEscaped();
  const message = `${kind}: ${errorMessage(error)}`;
  reportError(io, wroteStdout ? "text" : format, new Error(message));
  stopped = true;
  void stdio.drain().then(() => quit(EXIT.failed));
});
let exitCode: number = Math.max(await main(argv, io), atLeast);
commandCode = exitCode;
stalled();
await stdio.drain();
const failed = stdio.stdoutError();
if (failed !== undefined && failed.code !== "EPIPE") {
  // the reader closing the pipe early (`| head`) is no error; a full disk is: the output is incomplete
  io.stderr.write(
    `error [INTERNAL] cannot write to stdout: ${errorMessage(failed)} (the output is incomplete)\n`,
  );
  exitCode = Math.max(exitCode, EXIT.failed);
}
// The command is over: a tool that ignores its abort signal (the run was cancelled, or its call timed
// out) must not hold the process until it returns.
await stdio.drain();
quit(Math.max(exitCode, atLeast));
