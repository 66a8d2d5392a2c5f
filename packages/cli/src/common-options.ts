import { type Command, InvalidArgumentError, Option } from "commander";
import { DEFAULT_STORE } from "./open-store.js";
import type { OutputFormat } from "./output.js";
import { type GivenRetention, withRetention } from "./retention-option.js";

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
  /** `--retention <name=n,…>`: the store's retention (decision 0109). */
  readonly retention?: GivenRetention;
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

/**
 * A `--thread` flag (`--thread <id>`, `description`) whose empty value is a flag error naming the flag and
 * what to do instead (`without`: leaving the flag out, or where to find a thread id), rather than the library's
 * `threadId must be a non-empty string` (or, for commands that read, a thread "" that holds nothing).
 */
export function threadOption(description: string, without: string): Option {
  return new Option("--thread <id>", description).argParser((value: string) => {
    if (value === "")
      throw new InvalidArgumentError(`a thread id cannot be empty: give one (--thread t); ${without}`);
    return value;
  });
}

/** Adds `--store <url>`, `--retention <name=n,…>` and `--thread <id>`. */
export function withStore(command: Command, thread = true): Command {
  command.option("--store <url>", "state store: memory or sqlite:<file>", DEFAULT_STORE);
  withRetention(command);
  if (thread)
    command.addOption(
      threadOption("thread id", `leave --thread out for the thread "${DEFAULT_THREAD}"`).default(
        DEFAULT_THREAD,
      ),
    );
  return command;
}

/**
 * Adds `--store <url>` and an optional `--thread <id>` (validate, graph): the thread whose stored state the
 * plan is checked against. Without `--thread` the plan is checked against an empty thread and the store is
 * not opened (decision 0051): a plan approved once runs on many threads, each run checks it again.
 */
export function withCheckedThread(command: Command): Command {
  withStore(command, false);
  return command.addOption(
    threadOption(
      "thread whose stored state the plan is checked against (without it: an empty thread, the store is not read)",
      "leave --thread out to check against an empty thread",
    ),
  );
}

/** Adds `--tools <module>` (required when `required`). */
export function withTools(command: Command, required: boolean): Command {
  const description =
    "module (.js, .mjs, .cjs, .ts, .mts, .cts or .tsx) default-exporting the tools, or exporting each tool by name (and, for tools in the spec's form, exporting their implementations)";
  return required
    ? command.requiredOption("--tools <module>", `${description} (required)`)
    : command.option("--tools <module>", description);
}

/** The flags of the commands that execute a plan (`run`, `resume`). */
export interface ExecutionOptions {
  /** `--concurrency <n>`. */
  readonly concurrency?: number;
  /** `--fail-fast`. */
  readonly failFast?: boolean;
  /** `--verbose`. */
  readonly verbose?: boolean;
}

/** Adds `--concurrency <n>`, `--fail-fast` and `--verbose` (the commands that execute a plan). */
export function withExecution(command: Command): Command {
  return command
    .addOption(new Option("--concurrency <n>", "run at most n calls at once").argParser(parsePositive))
    .option("--fail-fast", "abort everything in flight at the first unhandled failure")
    .option("--verbose", "print the stack of each error a tool throws (as OBELISK_DEBUG=1 does)");
}

/** Adds `--input <file|json>`. */
export function withInput(command: Command): Command {
  return command.option(
    "--input <file|json>",
    "run input: a JSON file or inline JSON (object or Input message)",
  );
}

/** A whole number of at least `min` (and at most the largest safe integer), or a flag error saying so. */
function wholeNumber(value: string, min: number): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < min)
    throw new InvalidArgumentError(`expected a whole number from ${min} to ${Number.MAX_SAFE_INTEGER}`);
  return number;
}

/** Parses a non-negative integer flag value. */
export function parseCount(value: string): number {
  return wholeNumber(value, 0);
}

/** Parses a positive integer flag value. */
export function parsePositive(value: string): number {
  return wholeNumber(value, 1);
}
