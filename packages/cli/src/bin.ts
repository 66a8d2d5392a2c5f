#!/usr/bin/env node
import { processIo } from "./cli-io.js";
import { reserveStdoutForJson } from "./json-stdout.js";
import { main } from "./main.js";
import { onStall } from "./on-stall.js";
import { reportError, sniffFormat } from "./output.js";

// A closed pipe (`obelisk … | head`) is not an error worth a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

const argv = process.argv.slice(2);
// In json format stdout holds exactly one JSON document: whatever else is printed goes to stderr.
const io = sniffFormat(argv) === "json" ? reserveStdoutForJson(processIo()) : processIo();

// The last word when the event loop empties while the command still waits and no wait inside it (a run,
// a tools module loading) ended it: say so (exit 1) instead of Node's silent exit 13.
const stalled = onStall(() => {
  const error = new Error("the command could not finish: it waits on a promise that can never settle");
  process.exitCode = reportError(io, sniffFormat(argv), error);
});
process.exitCode = await main(argv, io);
stalled();
