import {
  DEFAULT_LIMITS,
  didYouMean,
  type JsonValue,
  jsonByteSize,
  type Limits,
  ObeliskError,
} from "@obelisk/core";
import { type Command, InvalidArgumentError } from "commander";
import { parsePositive } from "./common-options.js";

/**
 * The flag that sets the engine's limits (`--limits maxDepth=128,maxCalls=200000`, repeatable). Not
 * `--limit`: `state get --limit N` and `runs list --limit N` page with it (SPEC §10).
 */
export const LIMITS_FLAG = "--limits";

/** The names of the limits, as `createEngine({ limits })` and the diagnostics' hints spell them. */
export const LIMIT_NAMES: readonly (keyof Limits)[] = Object.keys(DEFAULT_LIMITS) as (keyof Limits)[];

const isLimitName = (name: string): name is keyof Limits => Object.hasOwn(DEFAULT_LIMITS, name);

/** One `name=n` of `--limits`: a known limit and a whole number from 1 (or a flag error saying why). */
function parseEntry(entry: string): [keyof Limits, number] {
  const at = entry.indexOf("=");
  const name = (at < 0 ? entry : entry.slice(0, at)).trim();
  if (at < 0 || name === "")
    throw new InvalidArgumentError(`expected <name>=<n> (e.g. maxDepth=128), got "${entry}"`);
  if (!isLimitName(name)) {
    const hint = didYouMean(name, LIMIT_NAMES) ?? `limits: ${LIMIT_NAMES.join(", ")}`;
    throw new InvalidArgumentError(`unknown limit ${name} (${hint})`);
  }
  const text = entry.slice(at + 1).trim();
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1)
    throw new InvalidArgumentError(
      `limit ${name} must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}, got "${text}"`,
    );
  return [name, value];
}

/** Parses a `--limits` value (`name=n[,name=n…]`) onto the ones given before (a later one wins). */
export function collectLimits(value: string, previous: Partial<Limits> | undefined): Partial<Limits> {
  const limits: Record<string, number> = { ...previous };
  for (const entry of value.split(",")) {
    const [name, number] = parseEntry(entry);
    limits[name] = number;
  }
  return limits as Partial<Limits>;
}

/** The commands that take `--limits`. */
const TAKE_LIMITS = "validate, run, graph, schema, resume and state set, get, unset and summary";

/**
 * Parses the page size `--limit <n>` of `state get` and `runs list`; an engine limit given to it
 * (`--limit maxDepth=128`) is told where those go.
 */
export function parsePageLimit(value: string): number {
  try {
    return parsePositive(value);
  } catch (error) {
    if (!value.includes("=") || !(error instanceof InvalidArgumentError)) throw error;
    throw new InvalidArgumentError(
      `${error.message} (--limit <n> is the page size; engine limits are set with ${LIMITS_FLAG} <name>=<n> on ${TAKE_LIMITS})`,
    );
  }
}

/**
 * The message of commander's refusal of an option a command does not know, for `--limits` on a command
 * that takes none (commander suggests the page size `--limit` there).
 */
export function unknownOptionMessage(message: string): string {
  if (!message.startsWith(`unknown option '${LIMITS_FLAG}'`)) return message;
  return `unknown option '${LIMITS_FLAG}': this command takes no engine limits (${TAKE_LIMITS} do)`;
}

/** Adds `--limits <name=n,…>` (the engine's limits: validate, run, graph, schema, resume, state set). */
export function withLimits(command: Command): Command {
  return command.option(
    `${LIMITS_FLAG} <name=n,...>`,
    `set engine limits, e.g. maxDepth=128,maxCalls=200000 (repeatable; names: ${LIMIT_NAMES.join(", ")})`,
    collectLimits,
  );
}

/** The limit a diagnostic's hint (or else its message) names, if any. */
function limitNamed(text: string | undefined): keyof Limits | undefined {
  for (const word of text?.match(/\bmax[A-Za-z]+\b/g) ?? []) if (isLimitName(word)) return word;
  return undefined;
}

/**
 * A `PLAN_LIMIT` hint that says how a CLI user changes the limit: the engine's hint (`flatten the
 * structure, or raise maxDepth`) and `; with the CLI: --limits maxDepth=<n> (now 64)`. A hint that names
 * no limit gets the flag and the names.
 */
export function limitHint(hint: string | undefined, message: string, limits: Limits): string {
  const name = limitNamed(hint) ?? limitNamed(message);
  const flag =
    name === undefined
      ? `set a limit with ${LIMITS_FLAG} <name>=<n> (names: ${LIMIT_NAMES.join(", ")})`
      : `${LIMITS_FLAG} ${name}=<n> (now ${limits[name]})`;
  return hint === undefined || hint === "" ? `with the CLI: ${flag}` : `${hint}; with the CLI: ${flag}`;
}

/** The `--limits` words that give these limits again, in a suggested command (none when none are set). */
export function limitsWords(limits: Partial<Limits> | undefined): string[] {
  const entries = Object.entries(limits ?? {}).map(([name, value]) => `${name}=${value}`);
  return entries.length === 0 ? [] : [LIMITS_FLAG, entries.join(",")];
}

/** Another way than a larger `maxValueBytes` for an input that is too large (`command`: see `cliCommand`). */
export function largeInputInstead(command: string): string {
  return `pass large data by reference instead: store it with ${command} state set (or a tool) and read it with †state`;
}

/**
 * The refusal of a value over `maxValueBytes` (`--input`, `state set --value`: USAGE; a store's own
 * OUTPUT_WRITE_FAILED or OUTPUT_TOO_LARGE too), with a hint that says how to raise the limit with the CLI
 * (after `instead`, another way, when there is one). Any other error, or a value within the limit, is
 * returned as it is.
 */
export function withValueLimitHint(
  error: unknown,
  value: JsonValue,
  limits: Limits,
  instead?: string,
): unknown {
  const codes = ["USAGE", "OUTPUT_WRITE_FAILED", "OUTPUT_TOO_LARGE"];
  if (!ObeliskError.is(error) || !codes.includes(error.code)) return error;
  if (jsonByteSize(value) <= limits.maxValueBytes) return error;
  const raise = `raise the limit: ${LIMITS_FLAG} maxValueBytes=<n> (now ${limits.maxValueBytes})`;
  return new ObeliskError(error.code, error.message, {
    cause: error,
    data: error.data,
    hint: instead === undefined ? raise : `${instead}; or ${raise}`,
  });
}
