import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { JsonValue, SourceMap } from "@obelisk/core";
import { LIMITS_FLAG } from "./limits-option.js";
import { readUtf8File } from "./read-utf8.js";
import { readJsonValue, refusedJsonError } from "./strict-json.js";
import { errorMessage, usageError } from "./usage-error.js";

/** The name an inline `--input` has in diagnostics (as `<stdin>` names a plan read from standard input). */
export const INLINE_INPUT = "<--input>";

/** `--input`, read: its value, and where it came from (to locate a diagnostic about it). */
export interface ParsedInput {
  /** The parsed JSON: a plain object or an Input message (the engine checks which). */
  readonly value: JsonValue;
  /** The JSON text (a file's without its byte order mark). */
  readonly text: string;
  /** The file as the user gave it, or {@link INLINE_INPUT} for inline JSON. */
  readonly name: string;
  /** True for inline JSON, false for a file. */
  readonly inline: boolean;
  /** Locates pointers in `text` (its syntax tree is built on first use: only a diagnostic about the input needs it). */
  sourceMap(): SourceMap | undefined;
}

/** How large an `--input` file may be, and what the refusal of a larger one suggests. */
export interface InputFileLimit {
  /** `limits.maxValueBytes`: a file larger than this (and a byte order mark) is refused unread. */
  readonly maxValueBytes: number;
  /** Another way than raising the limit (`largeInputInstead`), put first in the hint. */
  readonly instead?: string;
}

/**
 * Parses `--input`: inline JSON (starts with `{`) or a JSON file; a plain object or an Input message. JSON
 * the plan reader refuses (a repeated key, an integer beyond ±2^53…) is refused too. A file larger than
 * `limit.maxValueBytes` is refused by its size, before it is read (decision 0103). Throws USAGE.
 */
export function parseInput(
  value: string | undefined,
  cwd: string,
  limit?: InputFileLimit,
): ParsedInput | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  const inline = trimmed.startsWith("{") || trimmed.startsWith("[");
  const text = inline ? trimmed : readInputFile(value, cwd, limit);
  const source = inline ? "inline --input" : `--input file ${value}`;
  // core's reader: JSON.parse once, the tree only when something needs its checks or a problem is located
  const read = readJsonValue(text);
  if (!read.ok) throw refusedJsonError(text, read, source, !inline);
  const parsed = read.value;
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw usageError(`${source} must be a JSON object or an Input message`);
  }
  return {
    value: parsed,
    text,
    name: inline ? INLINE_INPUT : value,
    inline,
    sourceMap: () => read.sourceMap,
  };
}

function readInputFile(file: string, cwd: string, limit: InputFileLimit | undefined): string {
  const path = resolve(cwd, file);
  if (file.trim() === "") throw usageError("--input is empty: give inline JSON or a JSON file");
  // (standard input is the plan's: `run - --input -` would have two documents on one stream)
  if (file.trim() === "-")
    throw usageError(
      "--input - is not read from standard input (standard input is only for the plan, given as -)",
      undefined,
      `give the input as a file or inline JSON: --input in.json, or --input '{"name": …}'`,
    );
  if (!existsSync(path)) throw usageError(`--input is neither inline JSON nor an existing file: ${file}`);
  const stats = statSync(path);
  if (!stats.isFile()) throw usageError(`--input is not a file: ${file}`);
  // the value is never larger than its text (JSON.stringify adds no whitespace): a larger file is refused
  // unread (a 3 GB file was read whole, 164 s and 6.3 GB, to be called malformed)
  if (limit !== undefined && stats.size > limit.maxValueBytes + BOM_BYTES)
    throw tooLarge(file, stats.size, limit);
  try {
    // (at most the limit and a few bytes: a file that grew since is cut, and then refused as a value)
    return readUtf8File(path, limit?.maxValueBytes);
  } catch (error) {
    throw usageError(`cannot read --input file ${file}: ${errorMessage(error)}`);
  }
}

/** The UTF-8 bytes of a byte order mark, which a file may have beyond the limit (it is dropped). */
const BOM_BYTES = 3;

/** The refusal of an `--input` file larger than `maxValueBytes`, with the hint the engine's refusal gets. */
function tooLarge(file: string, size: number, limit: InputFileLimit): Error {
  const raise = `raise the limit: ${LIMITS_FLAG} maxValueBytes=<n> (now ${limit.maxValueBytes})`;
  return usageError(
    `--input file ${file} is ${size} bytes, larger than the limit of ${limit.maxValueBytes} bytes (limits.maxValueBytes)`,
    undefined,
    limit.instead === undefined ? raise : `${limit.instead}; or ${raise}`,
  );
}

/**
 * Parses a JSON value given on the command line (`state set --value`). A bare word, a number JavaScript
 * cannot hold (`1e999` parses as Infinity, which no JSON value is), and what else the plan reader refuses
 * (a repeated key, an integer beyond ±2^53) are refused. Throws USAGE.
 */
export function parseJsonValue(text: string, flag: string): JsonValue {
  const read = readJsonValue(text);
  if (read.ok) return read.value;
  if (read.malformed && /^[A-Za-z_][\w-]*$/.test(text))
    throw usageError(`${flag} must be JSON (for a string, quote it: '"${text}"')`);
  throw refusedJsonError(text, read, flag);
}
