import type { CliIo } from "./cli-io.js";
import type { ExitCode } from "./exit-codes.js";

/** What every command registration receives: the io and a way to report the exit code. */
export interface CommandContext {
  /** Streams, environment, working directory. */
  readonly io: CliIo;
  /** Records the command's exit code. */
  exit(code: ExitCode): void;
}
