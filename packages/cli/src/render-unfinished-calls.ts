import { plural } from "@obelisk/core";
import type { RunRecord } from "obelisk";
import type { Output } from "./output.js";
import { printTable } from "./render-run-result.js";
import type { UnfinishedCall } from "./unfinished-calls.js";

/** How many unfinished calls the text lists (json lists every one). */
const SHOWN_UNFINISHED = 20;

/** What the headline says of the unfinished calls: `, 3 calls not finished` (nothing when there is none). */
export function unfinishedCount(unfinished: readonly UnfinishedCall[]): string {
  return unfinished.length === 0 ? "" : `, ${plural(unfinished.length, "call")} not finished`;
}

/**
 * Prints the calls of a run's plan that have no record: while it runs, those in flight or not started; once
 * it ended, those it never finished.
 */
export function renderUnfinishedCalls(
  output: Output,
  run: RunRecord,
  unfinished: readonly UnfinishedCall[],
): void {
  const c = output.colors;
  if (unfinished.length > 0) {
    const running = run.status === "running";
    output.line();
    output.line(
      `  ${c.yellow(running ? "not finished (in flight or not started)" : "not finished when the run stopped (no record)")}`,
    );
    const rows = [
      ["call", "tool"],
      ...unfinished.slice(0, SHOWN_UNFINISHED).map((call) => [call.callId, call.tool]),
    ];
    printTable(output, rows);
    const more = unfinished.length - SHOWN_UNFINISHED;
    if (more > 0) output.line(c.dim(`  and ${more} more (--format json lists them)`));
  }
}
