import type { Command } from "commander";
import type { ThreadListing } from "obelisk";
import type { CommandContext } from "../command-context.js";
import { type CommonOptions, withFormat, withStore } from "../common-options.js";
import { displayText } from "../display-text.js";
import { withEngine } from "../engine-session.js";
import { EXIT } from "../exit-codes.js";
import { formatBytes } from "../format-bytes.js";
import { millisecondsFlag } from "../milliseconds-flag.js";
import { DEFAULT_STORE } from "../open-store.js";
import { createOutput, type Output } from "../output.js";
import { printTable } from "../render-run-result.js";
import { shellWord } from "../shell-word.js";
import { statusColor } from "../status-style.js";

interface ThreadsOptions extends Omit<CommonOptions, "thread"> {
  /** `--idle-for <ms>`: only the threads idle for at least this long (decision 0104, Amended). */
  readonly idleFor?: number;
}

/** Registers `obelisk threads list` (the s32 user review, L10: no way to learn a store's threads). */
export function registerThreads(program: Command, context: CommandContext): void {
  const threads = program.command("threads").description("the threads a store holds");
  const list = threads
    .command("list")
    .description("list the store's threads by id: variables, their size, stored outputs, runs, the last run");
  withStore(list, false);
  list.option(
    "--idle-for <ms>",
    "only the threads idle this many milliseconds: the newest run ended (or, without a run, the thread was created) before then (a week: 604800000)",
    millisecondsFlag("--idle-for"),
  );
  withFormat(list);
  list.action(async (options: ThreadsOptions) => {
    const output = createOutput(context.io, options.format);
    await withEngine(
      { store: options.store, retention: options.retention, storeAccess: "read" },
      context.io,
      async (engine) => {
        const found = await engine.threads.list(
          options.idleFor === undefined ? {} : { idleSince: Date.now() - options.idleFor },
        );
        output.json({ threads: found });
        printThreads(output, found, options.store, options.idleFor !== undefined);
      },
    );
    context.exit(EXIT.ok);
  });
}

/** The threads as a table, and how to look into one. */
function printThreads(output: Output, threads: readonly ThreadListing[], store: string, idle: boolean): void {
  const c = output.colors;
  if (threads.length === 0) {
    output.line(c.dim(idle ? "no thread in this store is idle that long" : "no threads in this store"));
    return;
  }
  const rows = [["thread", "variables", "size", "outputs", "runs", "last run"]];
  for (const thread of threads) {
    const last = thread.lastRun;
    rows.push([
      displayText(thread.threadId),
      String(thread.variables),
      formatBytes(thread.variableBytes),
      thread.callOutputs === 0 ? "0" : `${thread.callOutputs} (${formatBytes(thread.callOutputBytes)})`,
      String(thread.runs),
      last === undefined
        ? c.dim("—")
        : `${last.runId} ${statusColor(c, last.status)(last.status)} ${c.dim(last.startedAt)}`,
    ]);
  }
  printTable(output, rows);
  const storeFlag = store === DEFAULT_STORE ? "" : ` --store ${shellWord(store)}`;
  output.line();
  output.line(c.dim(`look into one: ${output.command} state summary --thread <id>${storeFlag}`));
}
