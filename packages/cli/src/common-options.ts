import { type Command, InvalidArgumentError, Option } from "commander";
import { DEFAULT_STORE } from "./open-store.js";
import type { OutputFormat } from "./output.js";

/** Options shared by the commands (each command adds the ones it takes). */
export interface CommonOptions {
  /** `--format`. */
  readonly format: OutputFormat;
  /** `--tools <module>`. */
  readonly tools?: string;
  /** `--input <file|json>`. */
  readonly input?: string;
  /** `--store <url>`. */
  readonly store: string;
  /** `--thread <id>`. */
  readonly thread: string;
}

/** Adds `--format text|json`. */
export function withFormat(command: Command): Command {
  return command.addOption(
    new Option("--format <format>", "output format").choices(["text", "json"]).default("text"),
  );
}

/** The thread used when `--thread` is not given. */
export const DEFAULT_THREAD = "default";

/** Adds `--store <url>` and `--thread <id>`. */
export function withStore(command: Command, thread = true): Command {
  command.option("--store <url>", "state store: memory or sqlite:<file>", DEFAULT_STORE);
  if (thread) command.option("--thread <id>", "thread id", DEFAULT_THREAD);
  return command;
}

/** Adds `--tools <module>` (required when `required`). */
export function withTools(command: Command, required: boolean): Command {
  const description = "ES module (.js, .mjs or .ts) default-exporting the tools";
  return required
    ? command.requiredOption("--tools <module>", description)
    : command.option("--tools <module>", description);
}

/** Adds `--input <file|json>`. */
export function withInput(command: Command): Command {
  return command.option(
    "--input <file|json>",
    "run input: a JSON file or inline JSON (object or Input message)",
  );
}

/** Parses a non-negative integer flag value (commander reports the error: exit 2). */
export function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError("expected a non-negative integer");
  return Number(value);
}

/** Parses a positive integer flag value. */
export function parsePositive(value: string): number {
  const count = parseCount(value);
  if (count < 1) throw new InvalidArgumentError("expected a positive integer");
  return count;
}
