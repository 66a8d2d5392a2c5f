import { plural } from "@obelisk/core";
import type { Command } from "commander";
import type { CommandContext } from "../command-context.js";
import { threadOption, withFormat } from "../common-options.js";
import { displayText } from "../display-text.js";
import { withEngine } from "../engine-session.js";
import { EXIT } from "../exit-codes.js";
import { withLockWait } from "../lock-wait-option.js";
import { DEFAULT_STORE } from "../open-store.js";
import { createOutput, type OutputFormat } from "../output.js";

interface DeleteOptions {
  readonly format: OutputFormat;
  readonly store: string;
  readonly thread: string;
  readonly lockWait?: number;
}

/**
 * Registers `obelisk state delete --thread <id>`: the thread removed entirely (`engine.deleteThread`).
 * `--thread` has no default here, unlike the other state subcommands: what goes cannot be brought back.
 */
export function registerStateDelete(state: Command, context: CommandContext): void {
  const remove = state
    .command("delete")
    .description(
      "delete the thread entirely: variables, stored call outputs, call records, run history and counters (reset keeps the history)",
    )
    .option("--store <url>", "state store: memory or sqlite:<file>", DEFAULT_STORE)
    .addOption(
      threadOption(
        "the thread to delete (no default: name it)",
        "threads list lists the threads",
      ).makeOptionMandatory(),
    );
  withLockWait(remove);
  withFormat(remove);
  remove.action(async (options: DeleteOptions) => {
    const output = createOutput(context.io, options.format);
    const session = { store: options.store, storeAccess: "edit", lockWait: options.lockWait } as const;
    await withEngine(session, context.io, async (engine) => {
      const thread = displayText(options.thread);
      // the store takes the thread's lock: THREAD_BUSY (exit 1) while a run holds it, nothing removed; a
      // thread it does not hold is answered `deleted: false` without the lock (the file stays as it was)
      const deletion = await engine.deleteThread(options.thread);
      output.json({ ok: true, threadId: options.thread, ...deletion });
      if (!deletion.deleted) {
        output.line(output.colors.dim(`thread ${thread} does not exist: nothing to delete`));
        return;
      }
      const what = [
        plural(deletion.runs, "run"),
        plural(deletion.callRecords, "call record"),
        plural(deletion.variables, "variable"),
      ];
      output.line(`${output.colors.green("✓")} deleted thread ${thread}: ${what.join(", ")}`);
      output.line(
        output.colors.dim(
          `a thread named ${thread} from now on is new: its automatic call ids start at 1 again, so tools' ctx.idempotencyKey values of the deleted thread repeat`,
        ),
      );
    });
    context.exit(EXIT.ok);
  });
}
