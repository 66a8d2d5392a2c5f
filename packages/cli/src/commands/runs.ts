import { didYouMean, ObeliskError } from "@obelisk/core";
import { type Command, InvalidArgumentError } from "commander";
import type { Engine, RunDetails, RunRecord, RunStatus } from "obelisk";
import type { CommandContext } from "../command-context.js";
import { type CommonOptions, threadOption, withFormat, withStore } from "../common-options.js";
import { displayText } from "../display-text.js";
import { withEngine } from "../engine-session.js";
import { EXIT } from "../exit-codes.js";
import { parsePageLimit } from "../limits-option.js";
import { DEFAULT_STORE } from "../open-store.js";
import { createOutput, type Output } from "../output.js";
import { printTable } from "../render-run-result.js";
import { runHolder } from "../run-holder.js";
import { withRunHints } from "../run-not-found-hint.js";
import { RUN_STATUSES } from "../run-statuses.js";
import { shellWord } from "../shell-word.js";
import { statusColor } from "../status-style.js";
import { unfinishedCalls } from "../unfinished-calls.js";
import { registerRunsCancel } from "./runs-cancel.js";
import { registerRunsPrune } from "./runs-prune.js";

/** How many runs `runs list` shows without `--limit`. */
const DEFAULT_RUNS_LIMIT = 20;

interface RunsOptions extends Omit<CommonOptions, "thread"> {
  readonly thread?: string;
  readonly limit?: number;
  readonly status?: RunStatus;
  readonly waiting?: boolean;
  readonly stale?: boolean;
  readonly before?: string;
  readonly verbose?: boolean;
}

/**
 * `--stale` lists `running` runs (decision 0068): it implies `--status running`, and refuses another status
 * (a usage error, exit 2).
 */
function staleStatus({ stale, status }: RunsOptions): RunStatus | undefined {
  if (stale !== true || status === undefined || status === "running")
    return stale === true ? "running" : status;
  throw new ObeliskError("USAGE", `--stale lists running runs, not ${status} ones`, {
    hint: "leave --status out (or give --status running) with --stale",
  });
}

/** Parses `--status`: one of the run statuses (a flag error with the nearest one otherwise, exit 2). */
function parseRunStatus(value: string): RunStatus {
  if ((RUN_STATUSES as readonly string[]).includes(value)) return value as RunStatus;
  const hint = didYouMean(value, RUN_STATUSES) ?? `one of ${RUN_STATUSES.join(", ")}`;
  throw new InvalidArgumentError(`unknown run status "${displayText(value)}" (${hint})`);
}

/**
 * Registers `obelisk runs list [--status <status>] [--waiting] [--stale] [--before <runId>]|show <runId>|prune
 * …|cancel <runId>`.
 */
export function registerRuns(program: Command, context: CommandContext): void {
  const runs = program.command("runs").description("run history");
  const list = runs.command("list").description("list runs, newest first");
  withStore(list, false);
  list
    .addOption(threadOption("only runs of this thread", "leave --thread out for every thread's runs"))
    .option(
      "--limit <n>",
      `at most n runs (default ${DEFAULT_RUNS_LIMIT}; more matching: said)`,
      parsePageLimit,
    )
    .option(
      "--status <status>",
      `only runs of this status (${RUN_STATUSES.join(", ")}; interrupted, and cancelled by Ctrl-C: the runs to resume — runs show says)`,
      parseRunStatus,
    )
    .option("--waiting", "only runs with a call waiting for approval (†state.approvals.…)")
    .option(
      "--stale",
      "only the running runs no live process holds (no heartbeat for over 30 s, or nobody holds the thread): a process that died in another container or on another host; resume or cancel them",
    )
    .option(
      "--before <runId>",
      "only the runs recorded before this one: the last run of a page, for the next page (unknown: exit 2)",
    );
  withFormat(list);
  list.action(async (given: RunsOptions) => {
    const output = createOutput(context.io, given.format);
    const limit = given.limit ?? DEFAULT_RUNS_LIMIT;
    const status = staleStatus(given);
    const options: RunsOptions = { ...given, ...(status === undefined ? {} : { status }) };
    await withEngine(
      { store: options.store, retention: options.retention, storeAccess: "read" },
      context.io,
      async (engine) => {
        // one more than asked: whether more runs match (a script resuming `--status interrupted` must know)
        const found = await listed(options.before, output.command, () =>
          engine.runs.list({
            ...(options.thread === undefined ? {} : { threadId: options.thread }),
            ...(status === undefined ? {} : { status }),
            ...(options.waiting === true ? { waiting: true } : {}),
            ...(options.stale === true ? { stale: true } : {}),
            ...(options.before === undefined ? {} : { before: options.before }),
            limit: limit + 1,
          }),
        );
        const more = found.length > limit;
        const records = more ? found.slice(0, limit) : found;
        output.json(more ? { runs: records, more } : { runs: records });
        printRuns(output, records, options);
        if (more) output.line(output.colors.dim(moreRuns(output.command, records, limit, given)));
      },
    );
    context.exit(EXIT.ok);
  });
  const show = runs
    .command("show")
    .description(
      "show one run: its plan, input, call outcomes, the calls not finished and, while it runs, who holds its thread",
    )
    .argument("<runId>", "the run's id (runs list lists them)");
  withStore(show, false);
  show.option(
    "--verbose",
    "print the stack of each error a tool threw, below the table (as OBELISK_DEBUG=1 does; json always has it)",
  );
  withFormat(show);
  show.action(async (runId: string, options: RunsOptions) => {
    const output = createOutput(context.io, options.format);
    await withEngine(
      { store: options.store, retention: options.retention, storeAccess: "read" },
      context.io,
      async (engine) => {
        const run = await withRunHints(options.store, output.command, () => engine.runs.show(runId));
        // the calls of its plan without a record: in flight or not started while it runs
        const unfinished = unfinishedCalls(run.run, run.calls);
        // a running run: who holds its thread (null: nobody, so it is not in progress), read without the lock
        const holder = await runHolder(engine.store, run.run);
        output.json({ ...run, unfinished, ...(holder === undefined ? {} : { holder }) });
        if (output.format === "text") {
          // imported here, not at start-up: it reads a constant of the engine (see run-statuses.ts)
          const { renderRunDetails } = await import("../render-run-details.js");
          const stacks = options.verbose === true || Boolean(context.io.env.OBELISK_DEBUG);
          const resumable = await cancelledResumable(engine.store, run, unfinished.length);
          renderRunDetails(output, run, options.store, unfinished, holder, stacks, resumable);
        }
      },
    );
    context.exit(EXIT.ok);
  });
  registerRunsPrune(runs, context);
  registerRunsCancel(runs, context);
}

/**
 * What to say when no run matched: `no runs recorded`, `no failed runs waiting for approval`, `no stale
 * running runs`, `… recorded before <run>`.
 */
function noRuns({ status, waiting, stale, before }: RunsOptions): string {
  const after = before === undefined ? "" : ` recorded before ${displayText(before)}`;
  if (status === undefined && waiting !== true)
    return before === undefined ? "no runs recorded" : `no runs${after}`;
  const which = `${stale === true ? "stale " : ""}${status === undefined ? "" : `${status} `}`;
  return `no ${which}runs${waiting === true ? " waiting for approval" : ""}${after}`;
}

/**
 * The line after a page when more runs match: the command that lists the next page (`--before` the last run
 * listed, the other flags as given).
 */
function moreRuns(command: string, records: readonly RunRecord[], limit: number, given: RunsOptions): string {
  const last = records.at(-1)?.runId ?? "";
  const flags = [
    ...(given.store === DEFAULT_STORE ? [] : ["--store", shellWord(given.store)]),
    ...(given.thread === undefined ? [] : ["--thread", shellWord(given.thread)]),
    ...(given.status === undefined ? [] : ["--status", given.status]),
    ...(given.waiting === true ? ["--waiting"] : []),
    ...(given.stale === true ? ["--stale"] : []),
    ...(given.limit === undefined ? [] : ["--limit", String(given.limit)]),
  ];
  const these =
    given.before === undefined ? `the newest ${limit}` : `the ${limit} before ${displayText(given.before)}`;
  const next = [command, "runs", "list", ...flags, "--before", shellWord(last)].join(" ");
  return `more runs match: these are ${these}; the next ${limit}: ${next}`;
}

/** Lists runs; a `--before` run the store does not hold (RUN_NOT_FOUND) is told in the CLI's words. */
async function listed<T>(before: string | undefined, command: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (before === undefined || !ObeliskError.is(error, "RUN_NOT_FOUND")) throw error;
    throw new ObeliskError(error.code, error.message, {
      cause: error,
      data: error.data,
      hint: `--before takes the last run of a page listed before; that run was pruned or its thread deleted since, or the id is wrong: ${command} runs list without --before starts again from the newest`,
    });
  }
}

/** The runs as a table; with interrupted runs, how to continue them; with `--waiting`, how to find the gate. */
function printRuns(output: Output, records: readonly RunRecord[], options: RunsOptions): void {
  if (records.length === 0) {
    output.line(output.colors.dim(noRuns(options)));
    return;
  }
  const storeFlag = options.store === DEFAULT_STORE ? "" : ` --store ${shellWord(options.store)}`;
  const rows = [["run", "thread", "status", "started", "plan"]];
  for (const run of records) {
    const status = statusColor(output.colors, run.status)(run.status);
    rows.push([run.runId, displayText(run.threadId), status, run.startedAt, `${run.planHash.slice(0, 19)}…`]);
  }
  printTable(output, rows);
  if (records.some((run) => run.status === "interrupted")) {
    output.line();
    output.line(
      output.colors.dim(
        `interrupted: its process stopped, or its engine was closed, before it ended; continue one with ${output.command} resume <run> --tools <module>${storeFlag}`,
      ),
    );
  }
  if (options.stale === true) {
    output.line();
    output.line(
      output.colors.dim(
        `stale: no live process holds the run's thread (it died, in another container or on another host, or hangs); ${output.command} resume <run> --tools <module>${storeFlag} takes the thread over and continues it, ${output.command} runs cancel <run>${storeFlag} gives it up`,
      ),
    );
  }
  if (options.waiting === true) {
    output.line();
    output.line(
      output.colors.dim(
        `waiting: a call of the run waited for an approval (a later run may have given it since); ${output.command} runs show <run>${storeFlag} names it`,
      ),
    );
  }
}

/**
 * True for a run its own signal cancelled (Ctrl-C: `cancelled`, no `reason`) that no run resumed yet and that
 * left calls to finish (cancelled or without a record): `resume` finishes them (decision 0070; a run
 * given up, with a reason, is refused). A store that cannot say what resumed a run: undefined (not offered).
 */
async function cancelledResumable(
  store: Engine["store"],
  { run, calls }: RunDetails,
  unfinished: number,
): Promise<boolean> {
  if (run.status !== "cancelled" || run.reason !== undefined || store.resumedBy === undefined) return false;
  if (unfinished === 0 && !calls.some((call) => call.status === "cancelled")) return false;
  return (await store.resumedBy(run.runId)) === undefined;
}
