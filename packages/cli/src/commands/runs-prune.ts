import { ObeliskError, plural } from "@obelisk/core";
import type { Command } from "commander";
import type { PruneRunsResult } from "obelisk";
import type { CommandContext } from "../command-context.js";
import { parseCount, threadOption, withFormat, withStore } from "../common-options.js";
import { displayText } from "../display-text.js";
import { withEngine } from "../engine-session.js";
import { EXIT } from "../exit-codes.js";
import { millisecondsFlag } from "../milliseconds-flag.js";
import type { OutputFormat } from "../output.js";
import { createOutput, type Output } from "../output.js";
import type { GivenRetention } from "../retention-option.js";
import { usageError } from "../usage-error.js";

interface PruneOptions {
  readonly format: OutputFormat;
  readonly store: string;
  readonly retention?: GivenRetention;
  readonly thread?: string;
  readonly keep?: number;
  readonly olderThan?: number;
}

/** How many removed run ids the text lists (json lists every one). */
const SHOWN_RUN_IDS = 10;

/** Registers `obelisk runs prune [--thread <id>] [--keep <n>] [--older-than <ms>]` under `runs`. */
export function registerRunsPrune(runs: Command, context: CommandContext): void {
  const prune = runs
    .command("prune")
    .description(
      "remove finished runs and the call records nothing needs (never a running one; the thread's values stay)",
    );
  withStore(prune, false);
  prune
    .addOption(
      threadOption(
        "only this thread's runs (default: every thread's)",
        "leave --thread out to prune every thread's runs",
      ),
    )
    .option("--keep <n>", "keep the n newest runs of each thread", parseCount)
    .option(
      "--older-than <ms>",
      "only runs that ended more than this many milliseconds ago (a week: 604800000)",
      millisecondsFlag("--older-than"),
    );
  withFormat(prune);
  prune.action(async (options: PruneOptions) => {
    const output = createOutput(context.io, options.format);
    // refused before the store is opened: without a criterion every finished run would match
    if (options.keep === undefined && options.olderThan === undefined)
      throw usageError(
        "runs prune needs --keep <n> or --older-than <ms> (or both)",
        undefined,
        "--keep 20 keeps each thread's 20 newest runs; --older-than 604800000 removes runs that ended over a week ago",
      );
    await withEngine(
      { store: options.store, retention: options.retention, storeAccess: "edit" },
      context.io,
      async (engine) => {
        const pruned = await engine.runs.prune({
          ...(options.thread === undefined ? {} : { threadId: options.thread }),
          ...(options.keep === undefined ? {} : { keepLast: options.keep }),
          ...(options.olderThan === undefined ? {} : { olderThanMs: options.olderThan }),
        });
        // the thread asked for could not be pruned at all: refused like the thread's other edits
        if (options.thread !== undefined && pruned.busyThreads.includes(options.thread as never))
          throw new ObeliskError(
            "THREAD_BUSY",
            `thread ${displayText(options.thread)} is held by a run: none of its runs was pruned`,
            { data: { threadId: options.thread }, hint: "prune again once the run has finished" },
          );
        output.json({ ok: true, ...pruned });
        printPruned(output, pruned, options);
      },
    );
    context.exit(EXIT.ok);
  });
}

/** What `runs prune` removed, for people: counts, the first run ids, the threads left alone. */
function printPruned(output: Output, pruned: PruneRunsResult, options: PruneOptions): void {
  const scope = options.thread === undefined ? "" : ` of thread ${displayText(options.thread)}`;
  if (pruned.runIds.length === 0 && pruned.callRecords === 0) {
    output.line(output.colors.dim(`no finished run${scope} matched: nothing pruned`));
  } else if (pruned.runIds.length === 0) {
    // only records of host edits (state set/unset) went: they belong to no run (decision record 0034)
    output.line(
      `${output.colors.green("✓")} pruned ${plural(pruned.callRecords, "call record")} of state set/unset edits${scope} (no finished run matched)`,
    );
  } else {
    const records = pruned.callRecords === 0 ? "" : ` and ${plural(pruned.callRecords, "call record")}`;
    const kept =
      pruned.keptCallRecords === 0
        ? ""
        : `; kept ${plural(pruned.keptCallRecords, "call record")} whose value is still in the thread (a re-sent plan's call stays satisfied)`;
    output.line(
      `${output.colors.green("✓")} pruned ${plural(pruned.runIds.length, "run")}${scope}${records}${kept}`,
    );
    const shown = pruned.runIds.slice(0, SHOWN_RUN_IDS).join(", ");
    const more = pruned.runIds.length - SHOWN_RUN_IDS;
    output.line(
      output.colors.dim(`  ${shown}${more > 0 ? ` and ${more} more (--format json lists them)` : ""}`),
    );
  }
  for (const thread of pruned.busyThreads)
    output.line(
      output.colors.dim(
        `thread ${displayText(thread)} was left alone: a run holds it (prune again once it has finished)`,
      ),
    );
}
