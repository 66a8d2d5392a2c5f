import { accessSync, constants, statSync, unlinkSync } from "node:fs";
import { resolve } from "node:path";
import { ObeliskError } from "@obelisk/core";
import type BetterSqlite3 from "better-sqlite3";
import { isReadonlyError } from "./sqlite-codes.js";

/** The side files SQLite keeps beside a WAL store file while connections use it. */
const SIDES = ["-wal", "-shm"] as const;

/** What a side file was when a read-only connection of this process opened the store. */
interface SideFilesAtOpen {
  /** Read-only connections of this process open on the file (the last to close cleans up). */
  connections: number;
  /** The side files that did not exist before the first of them opened: this process created them. */
  readonly created: readonly string[];
  /** The `-wal` file's size then (0 when missing): a change means a writer used it meanwhile. */
  readonly walSize: number;
}

const open = new Map<string, SideFilesAtOpen>();

const sizeOf = (path: string): number | undefined => {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
};

/**
 * True when `path` is this process's (`uid`) and only it may write it: such a side file is what stops
 * another user's writer. One that group or others may write stops nobody, and a writer of theirs may be
 * using it right now (its `-wal` not yet grown): it is left alone.
 */
const onlyOursToWrite = (path: string, uid: number): boolean => {
  try {
    const stats = statSync(path);
    return stats.uid === uid && (stats.mode & 0o022) === 0;
  } catch {
    return false;
  }
};

/**
 * Notes the `-wal`/`-shm` files beside `file` before a read-only connection opens it, and returns what
 * to call once that connection is closed: it removes the side files this process created, so a read of
 * another user's store leaves the directory as it was.
 *
 * Why it is needed: a read-only connection in a writable directory makes `-wal` and `-shm` (owned by the
 * reader, with the store file's mode) and never removes them; SQLite removes them only when the last
 * read-write connection closes. Left there, they belong to the reader, and the store's owner, who may not
 * write them, can no longer write the store (`SQLITE_READONLY`) until someone deletes them.
 *
 * When it is safe to remove them, and the races left:
 * - Only files that did not exist before this process opened the store: their absence means no connection
 *   used the store in WAL mode then (a live one keeps both), so nothing but this process relies on them.
 * - Only when the `-wal` is the size it was at open (empty, for one created here): a writer that started
 *   meanwhile and committed made it grow, and then the files are its own (left alone). A writer of another
 *   user cannot write files this reader owns (mode of the store file, 644 typically), so it cannot have
 *   appended frames: its writes failed (see the writer's `side-file` error) and removing the files frees
 *   it. Only root, or this reader's own user, could write them between the size check and the removal, a
 *   window of microseconds; this process's own user reads a store it may write through a read-write
 *   connection, which SQLite cleans up itself, so this path is for stores of another user.
 * - Only files still owned by this process's user, and that only it may write: one removed and made again
 *   by someone else is theirs, and one group or others may write (a umask of 002) stops no writer, while a
 *   writer of theirs may be using it with its `-wal` not yet grown — left alone.
 * - Several read-only connections of this process: the last to close cleans up (counted per file).
 * - Another reader process that opened the store meanwhile keeps reading through its open descriptors; it
 *   never writes, so at worst it reads a page a writer checkpoints at that moment (a failed read, never a
 *   damaged file), and it removes nothing it found existing when it opened.
 * A process killed while reading leaves the files: the writer's error names them (see `sideFileError`).
 */
export function trackSideFiles(file: string): () => void {
  const key = resolve(file);
  let entry = open.get(key);
  if (entry === undefined) {
    const created = SIDES.map((side) => `${file}${side}`).filter((path) => sizeOf(path) === undefined);
    entry = { connections: 0, created, walSize: sizeOf(`${file}-wal`) ?? 0 };
    open.set(key, entry);
  }
  const tracked = entry;
  tracked.connections++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--tracked.connections > 0) return;
    open.delete(key);
    removeCreated(file, tracked);
  };
}

/** Removes the side files `entry` says this process created, when nothing else used them (see above). */
function removeCreated(file: string, entry: SideFilesAtOpen): void {
  if (entry.created.length === 0 || typeof process.getuid !== "function") return;
  if ((sizeOf(`${file}-wal`) ?? 0) !== entry.walSize) return;
  const uid = process.getuid();
  // -wal first: it is what could hold data; the -shm is an index SQLite rebuilds when it finds none
  for (const side of SIDES) {
    const path = `${file}${side}`;
    if (!entry.created.includes(path) || !onlyOursToWrite(path, uid)) continue;
    try {
      unlinkSync(path);
    } catch {
      // gone already, or the directory no longer lets us: the writer's error names what is left
    }
  }
}

/** A side file beside a store this process may not write, and its owner. */
export interface BlockingSideFile {
  readonly path: string;
  readonly owner: number;
  readonly mode: number;
}

/** True when this process may write `path` (the default check of {@link blockingSideFile}). */
const mayWritePath = (path: string): boolean => {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
};

/** The first of `file`'s `-wal`/`-shm` that exists and this process may not write, else undefined. */
export function blockingSideFile(
  file: string,
  mayWrite: (path: string) => boolean = mayWritePath,
): BlockingSideFile | undefined {
  for (const side of SIDES) {
    const path = `${file}${side}`;
    let stats: ReturnType<typeof statSync>;
    try {
      stats = statSync(path);
    } catch {
      continue;
    }
    if (!mayWrite(path)) return { path, owner: Number(stats.uid), mode: Number(stats.mode) & 0o7777 };
  }
  return undefined;
}

/**
 * A write refused because SQLite's side file (`-wal`, `-shm`) belongs to another user who left it, e.g. by
 * reading the store: `STORE_ERROR` with `data.reason: "side-file"`, the file and its owner's uid.
 */
export function sideFileError(
  file: string,
  action: string,
  side: BlockingSideFile,
  cause?: unknown,
): ObeliskError {
  const uid = typeof process.getuid === "function" ? ` (uid ${process.getuid()})` : "";
  const mode = side.mode.toString(8).padStart(3, "0");
  return new ObeliskError(
    "STORE_ERROR",
    `cannot ${action}: SQLite may not write ${side.path}, which belongs to uid ${side.owner} (mode ${mode}), not to this process${uid}`,
    {
      ...(cause === undefined ? {} : { cause }),
      hint: `while no process uses the store, remove ${file}-shm, and ${file}-wal when it is empty (a -wal that is not empty holds changes: chown it instead), or give both the store file's owner and a mode that lets this process write them`,
      data: { reason: "side-file", file, sideFile: side.path, owner: side.owner },
    },
  );
}

/**
 * Undefined when `db` may write, else SQLite's refusal (`SQLITE_READONLY…`): a `BEGIN IMMEDIATE`, rolled
 * back at once, needs the WAL's write lock. A read-write connection that opened a `-shm` it may only read
 * (another user's, left or still in use by a read) reads well but can never write, not even once that
 * file is gone (it keeps the one it opened): the open must see it. Another writer holding the lock
 * (`SQLITE_BUSY`, not waited for) tells nothing and counts as "may write".
 */
export function writeRefusal(db: BetterSqlite3.Database): unknown {
  const timeout = Number(db.pragma("busy_timeout", { simple: true }));
  db.pragma("busy_timeout = 0");
  try {
    db.exec("BEGIN IMMEDIATE");
    db.exec("ROLLBACK");
    return undefined;
  } catch (error) {
    return isReadonlyError(error) ? error : undefined;
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
}
