import { statSync } from "node:fs";
import { ObeliskError } from "@obelisk/core";

/**
 * The identity (device and inode) of an open store file, to notice when the file is deleted or replaced
 * under an open connection: SQLite goes on writing to the unlinked file, so every later write would be
 * lost without a word (review 5 L1). Checked when a run starts and ends, not per commit (a system call).
 */
export class FileIdentity {
  private readonly identity: { readonly dev: number; readonly ino: number } | undefined;

  /** Remembers `file`'s identity (none for `:memory:` or a file that cannot be read: nothing is checked). */
  constructor(private readonly file: string) {
    this.identity = file === ":memory:" ? undefined : identityOf(file);
  }

  /** Throws STORE_ERROR when the file is gone or is another file than the one opened. */
  assertSame(action: string): void {
    const opened = this.identity;
    if (opened === undefined) return;
    const now = identityOf(this.file);
    if (now !== undefined && now.dev === opened.dev && now.ino === opened.ino) return;
    throw new ObeliskError(
      "STORE_ERROR",
      `cannot ${action}: the store file ${this.file} was ${now === undefined ? "deleted" : "replaced"} while this store had it open, so what was written since is not in it`,
      {
        hint: "open the store again; a run that was going on when it happened must be run again (its results were lost with the file)",
        data: { reason: now === undefined ? "deleted" : "replaced", file: this.file },
      },
    );
  }
}

function identityOf(file: string): { dev: number; ino: number } | undefined {
  try {
    const stats = statSync(file);
    return { dev: stats.dev, ino: stats.ino };
  } catch {
    return undefined;
  }
}
