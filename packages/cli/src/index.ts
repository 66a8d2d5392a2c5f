export type { CliIo, CliStream } from "./cli-io.js";
export { processIo } from "./cli-io.js";
export type { ExitCode } from "./exit-codes.js";
export { EXIT } from "./exit-codes.js";
export { createProgram, main } from "./main.js";
