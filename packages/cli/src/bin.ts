#!/usr/bin/env node
import { Console } from "node:console";
import { main } from "./main.js";
import { sniffFormat } from "./output.js";

// A closed pipe (`obelisk … | head`) is not an error worth a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

const argv = process.argv.slice(2);
// In json format stdout holds exactly one JSON document: what tools modules log goes to stderr.
if (sniffFormat(argv) === "json") globalThis.console = new Console(process.stderr, process.stderr);

process.exitCode = await main(argv);
