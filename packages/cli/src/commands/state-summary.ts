import { plural } from "@obelisk/core";
import type { Engine, VariableSummary } from "obelisk";
import { displayBlock, displayText } from "../display-text.js";
import { formatBytes } from "../format-bytes.js";
import type { Output } from "../output.js";
import { threadFlags } from "../what-next.js";
import type { StateOptions } from "./state-options.js";

/** `state summary`: the thread's variables, newest first, within the character budget. */
export async function stateSummary(engine: Engine, options: StateOptions, output: Output): Promise<void> {
  const common = {
    ...(options.last === undefined ? {} : { lastN: options.last }),
    ...(options.ref === undefined ? {} : { refs: options.ref }),
    ...(options.budget === undefined ? {} : { budgetChars: options.budget }),
  };
  if (output.format === "json") {
    output.json(await engine.summarize(options.thread, { ...common, format: "json" }));
    return;
  }
  const summary = await engine.summarize(options.thread, { ...common, format: "markdown" });
  if (summary.entries.length === 0) {
    for (const line of emptySummaryLines(options, summary)) output.line(output.colors.dim(line));
    return;
  }
  const bytes = summary.entries.reduce((sum, entry) => sum + entry.bytes, 0);
  const omitted = summary.omitted > 0 ? `, ${summary.omitted} more left out to stay within budget` : "";
  output.line(
    output.colors.bold(
      `Thread ${displayText(options.thread)}: ${plural(summary.entries.length, "variable")}, newest first${omitted}. ` +
        `${summary.text.length} characters describe ${formatBytes(bytes)} of data.`,
    ),
  );
  output.line();
  // descriptions and references come from plans: escaped, the summary's own lines kept
  output.line(displayBlock(summary.text.trimEnd()));
  output.line();
  output.line(
    output.colors.dim(
      `read a value (or one page of it): ${output.command} state get --ref <reference> [--offset N --limit N] ${threadFlags(options.thread, options.store)}`,
    ),
  );
}

/** What an empty text summary says: every variable left out for the budget, references not stored, or none. */
function emptySummaryLines(options: StateOptions, summary: VariableSummary): string[] {
  const lines: string[] = [];
  if (summary.omitted > 0) {
    const budget = options.budget === undefined ? "the default budget" : `${options.budget} characters`;
    lines.push(
      `thread ${displayText(options.thread)}: ${plural(summary.omitted, "variable")} left out to stay within ${budget} ` +
        "(raise --budget, or narrow with --last or --ref)",
    );
  }
  if (summary.notFound.length > 0)
    lines.push(
      `not stored on thread ${displayText(options.thread)} (missing or evicted): ${displayText(summary.notFound.join(", "))}`,
    );
  if (lines.length === 0) lines.push(`thread ${displayText(options.thread)} holds no variables`);
  return lines;
}
