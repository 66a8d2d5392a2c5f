import { DEFAULT_KINDS, parseReference, type Reference } from "@obelisk/core";
import { InvalidArgumentError } from "commander";

function parsed(value: string): Reference {
  const result = parseReference(value);
  if (!result.ok) {
    const hint = result.issue.hint === undefined ? "" : ` (${result.issue.hint})`;
    throw new InvalidArgumentError(`${result.issue.message}${hint} [${result.issue.code}]`);
  }
  return result.value;
}

/** Parses a `--ref` value: one whole reference (a malformed one is a usage error, exit 2). */
export function parseRefOption(value: string): string {
  parsed(value);
  return value;
}

/** Parses a `--ref` value of `state set`: a reference of a writable kind, below its root. */
export function parseWritableRefOption(value: string): string {
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
