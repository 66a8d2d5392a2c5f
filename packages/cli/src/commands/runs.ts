import type { Command } from "commander";
import type { CommandContext } from "../command-context.js";
import { type CommonOptions, withFormat, withStore } from "../common-options.js";
import { displayText } from "../display-text.js";
import { withEngine } from "../engine-session.js";
import { EXIT } from "../exit-codes.js";
import { parsePageLimit } from "../limits-option.js";
import { createOutput, type Output } from "../output.js";
import { renderRunDetails } from "../render-run-details.js";
import { printTable } from "../render-run-result.js";
import { statusColor } from "../status-style.js";

interface RunsOptions extends Omit<CommonOptions, "thread"> {
  readonly thread?: string;
  readonly limit?: number;
}

/** Registers `obelisk runs list|show <runId>`. */
export function registerRuns(program: Command, context: CommandContext): void {
  const runs = program.command("runs").description("run history");
  const list = runs.command("list").description("list runs, newest first");
  withStore(list, false);
  list
    .option("--thread <id>", "only runs of this thread")
    .option("--limit <n>", "at most n runs (default 20)", parsePageLimit);
  withFormat(list);
  list.action(async (options: RunsOptions) => {
    const output = createOutput(context.io, options.format);
    await withEngine({ store: options.store, storeAccess: "read" }, context.io, async (engine) => {
      const records = await engine.runs.list({
        ...(options.thread === undefined ? {} : { threadId: options.thread }),
        limit: options.limit ?? 20,
      });
      output.json({ runs: records });
      printRuns(output, records);
    });
    context.exit(EXIT.ok);
  });
  const show = runs
    .command("show")
    .description("show one run: its plan, input and call outcomes")
    .argument("<runId>");
  withStore(show, false);
  withFormat(show);
  show.action(async (runId: string, options: RunsOptions) => {
    const output = createOutput(context.io, options.format);
    await withEngine({ store: options.store, storeAccess: "read" }, context.io, async (engine) => {
      const run = await engine.runs.show(runId);
      output.json(run);
      if (output.format === "text") renderRunDetails(output, run, options.store);
    });
    context.exit(EXIT.ok);
  });
}

interface RunLine {
  readonly runId: string;
  readonly threadId: string;
  readonly status: "running" | "succeeded" | "failed" | "cancelled" | "interrupted";
  readonly planHash: string;
  readonly startedAt: string;
}

function printRuns(output: Output, records: readonly RunLine[]): void {
  if (records.length === 0) {
    output.line(output.colors.dim("no runs recorded"));
    return;
  }
  const rows = [["run", "thread", "status", "started", "plan"]];
  for (const run of records) {
    const status = statusColor(output.colors, run.status)(run.status);
    rows.push([run.runId, displayText(run.threadId), status, run.startedAt, `${run.planHash.slice(0, 19)}…`]);
  }
  printTable(output, rows);
}
