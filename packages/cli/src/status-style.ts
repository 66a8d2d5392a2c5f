import { assertNever } from "@obelisk/core";
import type { CallOutcome, RunResult } from "obelisk";
import type { Colors } from "./output.js";

/** Final status of one call. */
export type CallStatus = CallOutcome["status"];

/** Status of a run (`running` while in progress; `interrupted` when its process stopped, or its engine was closed, before it ended). */
export type RunStatus = RunResult["status"] | "running" | "interrupted";

/** A one-character symbol for a call status. */
export function statusSymbol(status: CallStatus): string {
  switch (status) {
    case "succeeded":
      return "✓";
    case "satisfied":
      return "=";
    case "failed":
      return "✗";
    case "blocked":
      return "⊘";
    case "waiting":
      return "⏸";
    case "rejected":
      return "⊗";
    case "deferred":
      return "…";
    case "cancelled":
      return "⊝";
    default:
      return assertNever(status);
  }
}

/** The colour of a call or run status. */
export function statusColor(c: Colors, status: CallStatus | RunStatus): (text: string) => string {
  switch (status) {
    case "succeeded":
    case "satisfied":
      return c.green;
    case "failed":
      return c.red;
    case "running":
      return c.cyan;
    case "blocked":
    case "waiting":
    case "rejected":
    case "deferred":
    case "cancelled":
    case "interrupted":
      return c.yellow;
    default:
      return assertNever(status);
  }
}

/** A short human duration: `12 ms`, `1.4 s`, `2 min 3 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
