import { DEFAULT_KINDS, type Limits, parseReference, type Reference } from "@obelisk/core";
import { InvalidArgumentError } from "commander";
import { limitHint } from "./limits-option.js";
import { usageError } from "./usage-error.js";

/**
 * Any depth while the flags are read: `--limits` may come after `--ref`, so the depth is checked once both
 * are known ({@link checkRefDepth}).
 */
const ANY_DEPTH = { maxPathDepth: Number.MAX_SAFE_INTEGER };

/**
 * A `--ref` typed without its dagger (`state.report`, `calls.fetch`, `input.user[0]`) is the reference
 * `†` + the text, when the text starts with a known kind followed by `.` or `[`: the dagger is hard to type
 * in a shell, and such a text cannot mean anything else here. Anything else is left as typed (and refused
 * by the reference grammar as before). Plans keep requiring the dagger (SPEC §2).
 */
function withDagger(value: string): string {
  const kind = /^[A-Za-z_$][A-Za-z0-9_$-]*(?=[.[])/.exec(value)?.[0];
  return kind !== undefined && DEFAULT_KINDS.has(kind) ? `†${value}` : value;
}

function parsed(value: string): Reference {
  const result = parseReference(value, DEFAULT_KINDS, ANY_DEPTH);
  if (!result.ok) {
    const hint = result.issue.hint === undefined ? "" : ` (${result.issue.hint})`;
    throw new InvalidArgumentError(`${result.issue.message}${hint} [${result.issue.code}]`);
  }
  return result.value;
}

/**
 * Parses a `--ref` value: one whole reference, its dagger added when left out ({@link withDagger}); a
 * malformed one is a usage error (exit 2).
 */
export function parseRefOption(typed: string): string {
  const value = withDagger(typed);
  parsed(value);
  return value;
}

/** Parses a `--ref` value of `state set`/`unset`: a reference of a writable kind, below its root. */
export function parseWritableRefOption(typed: string): string {
  const value = withDagger(typed);
  const { kind, path } = parsed(value);
  if (DEFAULT_KINDS.get(kind)?.writable !== true) {
    const writable = [...DEFAULT_KINDS.values()]
      .filter((info) => info.writable)
      .map((info) => `†${info.kind}`);
    throw new InvalidArgumentError(`only ${writable.join(", ")} can be written [OUTPUT_PATH_READONLY]`);
  }
  if (path.length === 0) throw new InvalidArgumentError(`give a path below †${kind}, e.g. †${kind}.user`);
  return value;
}

/** Collects repeated or space-separated `--ref` values, each checked by `parseRefOption`. */
export function collectRefOption(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), parseRefOption(value)];
}

/**
 * Refuses a `--ref` deeper than the engine's `maxPathDepth` (usage error, exit 2, as any malformed `--ref`)
 * before the store is opened: the engine would refuse it (PLAN_LIMIT). `limitsFlag`: the command takes
 * `--limits`, and the hint says how to raise it.
 */
export function checkRefDepth(refs: readonly string[], limits: Limits, limitsFlag: boolean): void {
  for (const ref of refs) {
    const result = parseReference(ref, DEFAULT_KINDS, limits);
    if (result.ok || result.issue.code !== "PLAN_LIMIT") continue;
    const fewer = "use a path with fewer segments";
    const hint = limitsFlag ? limitHint(`${fewer}, or raise maxPathDepth`, "", limits) : fewer;
    throw usageError(`--ref ${ref}: ${result.issue.message} [PLAN_LIMIT]`, undefined, hint);
  }
}
