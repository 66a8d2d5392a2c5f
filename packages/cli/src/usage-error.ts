import { ObeliskError } from "@obelisk/core";

/** A usage error (bad flag, unreadable file, tools module that does not load): exit code 2, one line on stderr. */
export function usageError(message: string, cause?: unknown, hint?: string): ObeliskError {
  return new ObeliskError("USAGE", oneLine(message), {
    ...(cause === undefined ? {} : { cause }),
    ...(hint === undefined ? {} : { hint }),
  });
}

/** Collapses a message to its first non-empty line (no stack traces, no multi-line dumps). */
export function oneLine(message: string): string {
  const lines = message
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith("at "));
  return lines.join(" ").slice(0, 500);
}

/** The message of anything thrown, on one line. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return oneLine(error.message || error.name);
  return oneLine(String(error));
}
