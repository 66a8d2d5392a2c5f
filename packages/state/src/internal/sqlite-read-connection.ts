import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import { ObeliskError } from "@obelisk/core";
import BetterSqlite3 from "better-sqlite3";
import { isReadonlyError, retryWhileBusy, sqliteCode } from "./sqlite-codes.js";
import { trackSideFiles } from "./sqlite-side-files.js";

/** How a read connection opens. */
interface ReadOptions {
  /** How long it waits for another connection's lock, ms. */
  readonly busyTimeoutMs: number;
}

/** False when the file exists and this process may not write it (EACCES, EPERM, EROFS). */
export function mayWrite(file: string): boolean {
  if (file === ":memory:" || !existsSync(file)) return true;
  try {
    accessSync(file, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** A connection that reads only, and how to close it. */
export interface ReadConnection {
  readonly db: BetterSqlite3.Database;
  readonly close: () => void;
}

/**
 * Opens `file` for reading only (see `openReadonly` in `sqlite-open.ts`); the first read tells whether it
 * works. A real read-only connection leaves the `-wal`/`-shm` it made when it closes: `close` removes them
 * (see `trackSideFiles`, where the races are weighed). Rejected: avoiding them by reading the file into
 * memory (what a read-only directory gets), whose memory cost grows with the file (a 1 GB store, 1 GB of
 * heap per read command), and `immutable=1`, which reads a file a writer may change meanwhile without a lock.
 */
export function readConnection(file: string, options: ReadOptions): ReadConnection {
  const probe = (db: BetterSqlite3.Database): unknown =>
    retryWhileBusy(options.busyTimeoutMs, () => db.prepare("SELECT count(*) FROM sqlite_master").get());
  const cannotRead = (error: unknown): boolean =>
    isReadonlyError(error) || sqliteCode(error) === "SQLITE_CANTOPEN";
  // A read-write connection checkpoints a non-empty -wal into the file when it closes (the file's bytes
  // change): then the real read-only connection is used, which leaves -wal and -shm as they are.
  if (mayWrite(file) && !walHasChanges(file)) {
    const db = new BetterSqlite3(file, { fileMustExist: true, timeout: options.busyTimeoutMs });
    try {
      db.pragma("query_only = ON");
      probe(db);
      return { db, close: () => db.close() };
    } catch (error) {
      db.close();
      if (!cannotRead(error)) throw error;
    }
  }
  const release = trackSideFiles(file);
  let db: BetterSqlite3.Database;
  try {
    db = new BetterSqlite3(file, { readonly: true, fileMustExist: true, timeout: options.busyTimeoutMs });
  } catch (error) {
    release();
    throw error;
  }
  try {
    probe(db);
    return {
      db,
      close: () => {
        db.close();
        release();
      },
    };
  } catch (error) {
    db.close();
    release();
    if (!cannotRead(error)) throw error;
    const snapshot = openSnapshot(file, error);
    return { db: snapshot, close: () => snapshot.close() };
  }
}

/** True when a `-wal` file beside `file` holds changes (frames not yet checkpointed into the file). */
function walHasChanges(file: string): boolean {
  const wal = `${file}-wal`;
  return existsSync(wal) && statSync(wal).size > 0;
}

function openSnapshot(file: string, cause: unknown): BetterSqlite3.Database {
  const wal = `${file}-wal`;
  if (walHasChanges(file)) {
    throw new ObeliskError(
      "STORE_ERROR",
      `cannot read ${file}: its directory is not writable and ${wal} holds changes not yet in the file`,
      {
        cause,
        hint: "open it once where it can be written (or copy the directory) so SQLite can fold them in",
      },
    );
  }
  const bytes = readFileSync(file);
  // bytes 18–19: file format versions, 2 = WAL; an in-memory copy must read as a rollback-journal file
  if (bytes.length >= 20 && bytes[18] === 2 && bytes[19] === 2) bytes.fill(1, 18, 20);
  return new BetterSqlite3(bytes, { readonly: true });
}
