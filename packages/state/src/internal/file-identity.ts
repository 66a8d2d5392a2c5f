import { readdirSync, readlinkSync, statSync } from "node:fs";
import { ObeliskError } from "@obelisk/core";

/** A file's device and inode. */
interface Identity {
  readonly dev: number;
  readonly ino: number;
}

/** Where the opened file went: unlinked, or (`movedTo`) linked at another path now. */
type Whereabouts = { readonly deleted: true } | { readonly deleted?: undefined; readonly movedTo: string };

/**
 * The identity (device and inode) of an open store file, to notice when the file is deleted, renamed or
 * replaced under an open connection: SQLite goes on writing to the file it opened, so every later write
 * would be lost from the path without a word (review 5 L1). Checked when a run starts and ends, not per
 * commit (a system call).
 */
export class FileIdentity {
  private readonly identity: Identity | undefined;

  /** Remembers `file`'s identity (none for `:memory:` or a file that cannot be read: nothing is checked). */
  constructor(private readonly file: string) {
    this.identity = file === ":memory:" ? undefined : identityOf(file);
  }

  /**
   * Throws STORE_ERROR when the file is gone from its path or is another file than the one opened:
   * `data.reason` `renamed` (with `movedTo`) when the opened file is linked at another path now, else
   * `deleted` (nothing at the path) or `replaced` (another file there).
   */
  assertSame(action: string): void {
    const opened = this.identity;
    if (opened === undefined) return;
    const now = identityOf(this.file);
    if (now !== undefined && now.dev === opened.dev && now.ino === opened.ino) return;
    const where = whereabouts(opened);
    if (where !== undefined && "movedTo" in where) throw this.renamed(action, where.movedTo, now);
    const reason = now === undefined ? "deleted" : "replaced";
    throw new ObeliskError(
      "STORE_ERROR",
      `cannot ${action}: the store file ${this.file} was ${reason} while this store had it open, so what was written since is not in it`,
      {
        hint: "open the store again; a run that was going on when it happened must be run again (its results were lost with the file)",
        data: { reason, file: this.file },
      },
    );
  }

  /**
   * The error for a store file renamed (moved) to `movedTo`, another file at its path or none (`now`).
   * SQLite finds a database's `-wal` by the database's name and does not fold it into a moved file, even
   * on close: the latest writes stay in the `-wal` beside the old name, so the file must go back there.
   */
  private renamed(action: string, movedTo: string, now: Identity | undefined): ObeliskError {
    const file = this.file;
    const instead = now === undefined ? "" : `, in place of the file there now`;
    return new ObeliskError(
      "STORE_ERROR",
      `cannot ${action}: the store file ${file} was renamed to ${movedTo} while this store had it open${now === undefined ? "" : ` (${file} is another file now)`}; its latest writes are in ${file}-wal, beside the old name`,
      {
        hint: `move ${movedTo} back to ${file}${instead}, before any store opens it (SQLite pairs a file with the -wal of its name), then open the store again; a run that was going on is found interrupted, to resume`,
        data: { reason: "renamed", file, movedTo },
      },
    );
  }
}

function identityOf(file: string): Identity | undefined {
  try {
    const stats = statSync(file);
    return { dev: stats.dev, ino: stats.ino };
  } catch {
    return undefined;
  }
}

/**
 * Where the opened file is now, told from this process's descriptor of it (the connection keeps the file
 * open): unlinked (no link left), or the path it is linked at — checked to be that very file. Undefined
 * where it cannot be told reliably (no Linux `/proc/self/fd`, the path not visible from here).
 */
function whereabouts(opened: Identity): Whereabouts | undefined {
  let descriptors: string[];
  try {
    descriptors = readdirSync("/proc/self/fd");
  } catch {
    return undefined;
  }
  for (const fd of descriptors) {
    const link = `/proc/self/fd/${fd}`;
    let path: string;
    try {
      const stats = statSync(link);
      if (stats.dev !== opened.dev || stats.ino !== opened.ino) continue;
      if (stats.nlink === 0) return { deleted: true };
      path = readlinkSync(link);
    } catch {
      continue;
    }
    const there = identityOf(path);
    return there?.dev === opened.dev && there.ino === opened.ino ? { movedTo: path } : undefined;
  }
  return undefined;
}
