import { plural } from "@obelisk/core";
import type { RunResult } from "obelisk";
import { displayText } from "./display-text.js";
import type { Output } from "./output.js";
import { formatDuration, statusColor, statusSymbol } from "./status-style.js";

/** Pads visible text (ignoring ANSI colour codes) to a width. */
export function pad(text: string, width: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes to measure width
  const visible = text.replace(/\x1b\[[0-9;]*m/g, "").length;
  return visible >= width ? text : text + " ".repeat(width - visible);
}

/** Prints rows as aligned columns, the first row being the header. */
export function printTable(output: Output, rows: readonly (readonly string[])[], indent = "  "): void {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, visibleLength(cell));
    });
  }
  rows.forEach((row, r) => {
    const cells = row.map((cell, i) => (i === row.length - 1 ? cell : pad(cell, widths[i] ?? 0)));
    output.line(`${indent}${r === 0 ? output.colors.dim(cells.join("  ")) : cells.join("  ")}`);
  });
}

function visibleLength(text: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes to measure width
  return text.replace(/\x1b\[[0-9;]*m/g, "").length;
}

/** Prints the end of a run in text: the run line, a table of call outcomes and what each wrote. */
export function renderRunResult(output: Output, result: RunResult): void {
  const c = output.colors;
  const entries = Object.entries(result.calls);
  const tally = new Map<string, number>();
  for (const [, call] of entries) tally.set(call.status, (tally.get(call.status) ?? 0) + 1);
  // a waiting call did not run: "1 waiting" after "Run succeeded" read as done (review s39)
  const parts = [...tally]
    .map(([status, n]) =>
      status === "waiting" ? `${n} waiting for an approval (not run)` : `${n} ${status}`,
    )
    .join(", ");
  output.line();
  output.line(
    `${statusColor(c, result.status)(c.bold(`Run ${result.status}`))} in ${formatDuration(result.durationMs)} — ${parts || "no calls"}`,
  );
  const thread = displayText(result.threadId);
  output.line(c.dim(`  run ${result.runId} · thread ${thread} · plan ${result.planHash}`));
  if (entries.length === 0) return;
  output.line();
  const rows: string[][] = [["call", "tool", "status", "time", "wrote / reason"]];
  for (const [callId, call] of entries) {
    const status = statusColor(c, call.status)(`${statusSymbol(call.status)} ${call.status}`);
    const branch = call.branch === undefined || call.branch === 0 ? "" : c.dim(` (branch ${call.branch})`);
    const wrote = call.wrote.length > 0 ? displayText(call.wrote.join(", ")) : c.dim("—");
    const why =
      call.error !== undefined
        ? c.red(` ${displayText(call.error.code)}: ${displayText(call.error.message)}`)
        : "";
    const reason = call.reason !== undefined ? c.yellow(` ${displayText(call.reason)}`) : "";
    const time = call.attempts > 0 ? formatDuration(call.durationMs) : c.dim("—");
    rows.push([callId, call.tool, `${status}${branch}`, time, `${wrote}${why}${reason}`]);
  }
  printTable(output, rows);
  for (const error of result.errors) {
    output.line(
      c.red(`  ✗ ${error.callId}: ${displayText(error.error.code)}: ${displayText(error.error.message)}`),
    );
  }
  const waiting = entries.filter(([, call]) => call.status === "waiting").map(([callId]) => callId);
  if (waiting.length > 0) {
    const one = waiting.length === 1;
    const named = waiting.length <= 3 ? ` (${displayText(waiting.join(", "))})` : "";
    output.line();
    output.line(
      c.yellow(
        `  ⏸ ${plural(waiting.length, "call")}${named} did not run: ${one ? "it waits" : "they wait"} for an approval, which a person must give before the plan runs again`,
      ),
    );
  }
}
