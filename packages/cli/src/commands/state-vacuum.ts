import type { Command } from "commander";
import type { CommandContext } from "../command-context.js";
import { withFormat } from "../common-options.js";
import { displayText } from "../display-text.js";
import { withEngine } from "../engine-session.js";
import { EXIT } from "../exit-codes.js";
import { formatBytes } from "../format-bytes.js";
import { createsStore, DEFAULT_STORE } from "../open-store.js";
import { createOutput } from "../output.js";
import { usageError } from "../usage-error.js";

interface VacuumOptions {
  readonly format: "text" | "json";
  readonly store: string;
}

/**
 * Registers `obelisk state vacuum [--store sqlite:<file>]`: the SQLite file's free space given back
 * (`StateStore.vacuum`). No `--thread`: it is the whole file. Refused with THREAD_BUSY (exit 1, nothing
 * changed) while a run of any process holds a thread; a memory store, or a file that does not exist,
 * has nothing to vacuum (exit 2, nothing created).
 */
export function registerStateVacuum(state: Command, context: CommandContext): void {
  const vacuum = state
    .command("vacuum")
    .description(
      "give a SQLite store file's free space back to the file system (SQLite VACUUM), refused while a run holds a thread",
    )
    .option("--store <url>", "state store: sqlite:<file>", DEFAULT_STORE);
  withFormat(vacuum);
  vacuum.action(async (options: VacuumOptions) => {
    const output = createOutput(context.io, options.format);
    if (options.store === "memory")
      throw usageError(
        "a memory store has no file: nothing to vacuum",
        undefined,
        "state vacuum works on a SQLite store: --store sqlite:<file>",
      );
    const file = options.store.slice("sqlite:".length);
    await withEngine({ store: options.store, storeAccess: "edit" }, context.io, async (engine) => {
      // `edit` refuses a missing --store file (nothing created); the default store, when missing, reads as
      // an empty store without a file: nothing to vacuum either
      if (engine.store.vacuum === undefined)
        throw usageError(
          `store file ${displayText(file)} does not exist: nothing to vacuum`,
          undefined,
          `nothing was created; ${createsStore(output.command)} create a store`,
        );
      const { bytesBefore, bytesAfter, walBytesAfter = 0 } = await engine.store.vacuum();
      output.json({ ok: true, bytesBefore, bytesAfter, walBytesAfter });
      // another process reading the file kept the last checkpoint from emptying the -wal (it holds the
      // rewritten copy until a later checkpoint): without saying so, the store looks doubled
      const waiting =
        walBytesAfter === 0
          ? ""
          : ` (${formatBytes(walBytesAfter)} of it still in the -wal: another process was reading the file; it shrinks at a later checkpoint, or vacuum again when no run uses the file)`;
      output.line(
        `${output.colors.green("✓")} vacuumed ${displayText(file)}: ${formatBytes(bytesBefore)} → ${formatBytes(bytesAfter)}${waiting}`,
      );
    });
    context.exit(EXIT.ok);
  });
}
