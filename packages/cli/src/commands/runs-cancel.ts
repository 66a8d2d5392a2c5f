import type { Command } from "commander";
import type { CommandContext } from "../command-context.js";
import { withFormat, withStore } from "../common-options.js";
import { displayText } from "../display-text.js";
import { withEngine } from "../engine-session.js";
import { EXIT } from "../exit-codes.js";
import type { OutputFormat } from "../output.js";
import { createOutput } from "../output.js";
import type { GivenRetention } from "../retention-option.js";
import { withRunHints } from "../run-not-found-hint.js";

interface CancelOptions {
  readonly format: OutputFormat;
  readonly store: string;
  readonly retention?: GivenRetention;
  readonly reason?: string;
}

/** Registers `obelisk runs cancel <runId> [--reason <text>]` under `runs` (engine.runs.cancel, decision 0043). */
export function registerRunsCancel(runs: Command, context: CommandContext): void {
  const cancel = runs
    .command("cancel")
    .description(
      "give up an interrupted run without running anything: it ends cancelled (a run that has ended is left as it is)",
    )
    .argument("<runId>");
  withStore(cancel, false);
  cancel.option("--reason <text>", "why, kept first in the run's recorded reason");
  withFormat(cancel);
  cancel.action(async (runId: string, options: CancelOptions) => {
    const output = createOutput(context.io, options.format);
    await withEngine(
      { store: options.store, retention: options.retention, storeAccess: "edit" },
      context.io,
      async (engine) => {
        const given = options.reason === undefined ? {} : { reason: options.reason };
        const result = await withRunHints(options.store, output.command, () =>
          engine.runs.cancel(runId, given),
        );
        output.json({ ok: true, ...result });
        if (result.cancelled.length === 0)
          output.line(
            `run ${displayText(runId)} had already ended (${result.run.status}): nothing cancelled`,
          );
        else
          output.line(
            `cancelled ${result.cancelled.map((id) => displayText(id)).join(", ")}: nothing was run; the thread's values stay`,
          );
      },
    );
    context.exit(EXIT.ok);
  });
}
