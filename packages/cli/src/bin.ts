#!/usr/bin/env node
import { processIo } from "./cli-io.js";
import { reserveStdoutForJson } from "./json-stdout.js";
import { main } from "./main.js";
import { sniffFormat } from "./output.js";

// A closed pipe (`obelisk … | head`) is not an error worth a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

const argv = process.argv.slice(2);
// In json format stdout holds exactly one JSON document: whatever else is printed goes to stderr.
const io = sniffFormat(argv) === "json" ? reserveStdoutForJson(processIo()) : processIo();

process.exitCode = await main(argv, io);
