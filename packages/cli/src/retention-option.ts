import { didYouMean } from "@obelisk/core";
import { type Command, InvalidArgumentError, Option } from "commander";
import type { RetentionPolicy } from "obelisk";
import type { CliIo } from "./cli-io.js";
import { UNIT_MS, WITH_UNIT } from "./duration-units.js";
import { usageError } from "./usage-error.js";

/** The flag that sets the store's retention (`--retention maxCallOutputAgeMs=86400000`, repeatable). */
const RETENTION_FLAG = "--retention";

/**
 * The environment variable that gives every command the same retention (decision 0109): set it where a
 * service sharing the store file sets its `retention`, so every process on the file uses the same limits.
 */
const RETENTION_VARIABLE = "OBELISK_RETENTION";

/** The retention fields, as `createEngine({ retention })` spells them (a new field is a compile error here). */
const FIELDS = {
  maxVariables: true,
  maxBytes: true,
  maxAgeMs: true,
  maxCallOutputs: true,
  maxCallOutputBytes: true,
  maxCallOutputAgeMs: true,
} as const satisfies Record<keyof RetentionPolicy, true>;

/** The names of the retention fields. */
const RETENTION_NAMES: readonly (keyof RetentionPolicy)[] = Object.keys(FIELDS) as (keyof RetentionPolicy)[];

const isField = (name: string): name is keyof RetentionPolicy => Object.hasOwn(FIELDS, name);

/** A retention the CLI was given: the fields set, the others the store's defaults. */
export type GivenRetention = { -readonly [K in keyof RetentionPolicy]?: number };

/** One `name=n` of a retention value: a field and a whole number from 0 or `Infinity` (or why not, as text). */
function parseEntry(entry: string): [keyof RetentionPolicy, number] | string {
  if (entry.trim() === "")
    return "an empty field (a comma at the end, or two in a row): give name=n between the commas";
  const at = entry.indexOf("=");
  const name = (at < 0 ? entry : entry.slice(0, at)).trim();
  if (at < 0 || name === "") return `expected <name>=<n> (e.g. maxCallOutputAgeMs=86400000), got "${entry}"`;
  if (!isField(name)) {
    const hint = didYouMean(name, RETENTION_NAMES) ?? `names: ${RETENTION_NAMES.join(", ")}`;
    return `unknown retention field ${name} (${hint})`;
  }
  const text = entry.slice(at + 1).trim();
  if (text === "Infinity") return [name, Number.POSITIVE_INFINITY];
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value)) {
    const refused = `retention ${name} must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER} or Infinity (no bound), got "${text}"`;
    const unit = name.endsWith("Ms") ? WITH_UNIT.exec(text) : null;
    if (unit === null) return refused;
    // a duration with a unit (`24h`): the age fields count milliseconds, as createEngine's do
    const ms = Math.round(Number(unit[1]) * (UNIT_MS[unit[2] ?? ""] ?? 1));
    return `${refused} (${name} counts milliseconds: for ${text}, ${name}=${ms})`;
  }
  return [name, value];
}

/** Parses `name=n[,name=n…]` onto `previous` (a later field wins); a string is the reason it is refused. */
function parseRetention(value: string, previous: GivenRetention | undefined): GivenRetention | string {
  const retention: GivenRetention = { ...previous };
  for (const entry of value.split(",")) {
    const parsed = parseEntry(entry);
    if (typeof parsed === "string") return parsed;
    retention[parsed[0]] = parsed[1];
  }
  return retention;
}

/** Parses a `--retention` value onto the ones given before (a flag error saying why it is refused). */
function collectRetention(value: string, previous: GivenRetention | undefined): GivenRetention {
  const parsed = parseRetention(value, previous);
  if (typeof parsed === "string") throw new InvalidArgumentError(parsed);
  return parsed;
}

/** Adds `--retention <name=n,…>`: the store's retention for this command (decision 0109). */
export function withRetention(command: Command): Command {
  return command.addOption(
    new Option(
      `${RETENTION_FLAG} <name=n,...>`,
      `the store's retention, as the service sharing the file has it, e.g. maxCallOutputAgeMs=86400000 (repeatable; over ${RETENTION_VARIABLE}; names: ${RETENTION_NAMES.join(", ")}; ms, counts, bytes; Infinity: no bound)`,
    ).argParser(collectRetention),
  );
}

/**
 * The retention a command opens its store with: `OBELISK_RETENTION`'s fields, the `--retention` ones over
 * them; undefined when neither is given (the store's defaults). A malformed variable is USAGE before
 * anything is opened: a misspelt field must not leave a service's outputs to the 60-minute default.
 */
export function retentionOf(io: CliIo, given: GivenRetention | undefined): GivenRetention | undefined {
  const text = io.env[RETENTION_VARIABLE];
  if (text === undefined || text.trim() === "") return given;
  const parsed = parseRetention(text, undefined);
  if (typeof parsed === "string")
    throw usageError(
      `${RETENTION_VARIABLE}: ${parsed}`,
      undefined,
      `${RETENTION_VARIABLE} takes what ${RETENTION_FLAG} takes: <name>=<n>[,<name>=<n>…], e.g. maxCallOutputAgeMs=86400000,maxAgeMs=600000`,
    );
  return { ...parsed, ...given };
}
