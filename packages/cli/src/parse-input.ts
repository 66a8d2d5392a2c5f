import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { JsonValue, SourceMap } from "@obelisk/core";
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

/**
 * Parses `--input`: inline JSON (starts with `{`) or a JSON file; a plain object or an Input message. JSON
 * the plan reader refuses (a repeated key, an integer beyond ±2^53…) is refused too. Throws USAGE.
 */
export function parseInput(value: string | undefined, cwd: string): ParsedInput | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  const inline = trimmed.startsWith("{") || trimmed.startsWith("[");
  const text = inline ? trimmed : readInputFile(value, cwd);
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

function readInputFile(file: string, cwd: string): string {
  const path = resolve(cwd, file);
  if (file.trim() === "") throw usageError("--input is empty: give inline JSON or a JSON file");
  if (!existsSync(path)) throw usageError(`--input is neither inline JSON nor an existing file: ${file}`);
  if (!statSync(path).isFile()) throw usageError(`--input is not a file: ${file}`);
  try {
    return readUtf8File(path);
  } catch (error) {
    throw usageError(`cannot read --input file ${file}: ${errorMessage(error)}`);
  }
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
