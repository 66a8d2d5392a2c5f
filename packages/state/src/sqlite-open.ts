import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import { ObeliskError } from "@obelisk/core";
import BetterSqlite3 from "better-sqlite3";
import { prepareSchema, type SqliteStatements } from "./internal/sqlite-schema.js";

/** A store file's connection, ready for the store: pragmas set, schema checked, statements prepared. */
export interface OpenedSqlite {
  readonly db: BetterSqlite3.Database;
  readonly statements: SqliteStatements;
  /** True when the connection cannot write (the store refuses every write with a clear error). */
  readonly readonly: boolean;
}

/** How to open a store file. */
export interface SqliteOpenOptions {
  /** Open read-only even when the file is writable. */
  readonly readonly?: boolean | undefined;
  /** How long opening and writes wait for another connection, ms. */
  readonly busyTimeoutMs: number;
  /** `synchronous` pragma of a writable connection. */
  readonly durability?: "normal" | "full" | undefined;
}

const sqliteCode = (error: unknown): string => String((error as { code?: unknown }).code ?? "");
/** SQLITE_BUSY and its extended codes: another connection holds a lock SQLite would not wait for. */
const isBusy = (error: unknown): boolean => /^SQLITE_BUSY(_|$)/.test(sqliteCode(error));
/** SQLITE_READONLY and its extended codes (a read-only file, or a directory where -wal/-shm cannot be made). */
export const isReadonlyError = (error: unknown): boolean => /^SQLITE_READONLY(_|$)/.test(sqliteCode(error));

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `step` again while it fails with SQLITE_BUSY, for up to `timeoutMs` (short blocking pauses, as
 * SQLite's own busy handler makes). Needed when several processes open one fresh file at once: switching
 * a new file to WAL takes an exclusive lock, and SQLite answers SQLITE_BUSY at once there instead of
 * waiting `busy_timeout` (seen as "database is locked" from the second of three parallel `validate`s).
 * Every step retried is idempotent (`IF NOT EXISTS`, `INSERT OR IGNORE`, a migration that checks first).
 */
function retryWhileBusy<T>(timeoutMs: number, step: () => T): T {
  const deadline = Date.now() + timeoutMs;
  for (let pauseMs = 1; ; pauseMs = Math.min(pauseMs * 2, 50)) {
    try {
      return step();
    } catch (error) {
      if (!isBusy(error) || Date.now() + pauseMs > deadline) throw error;
      Atomics.wait(PAUSE, 0, 0, pauseMs);
    }
  }
}

/** False when the file exists and this process may not write it (EACCES, EPERM, EROFS). */
function mayWrite(file: string): boolean {
  if (file === ":memory:" || !existsSync(file)) return true;
  try {
    accessSync(file, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function openWritable(file: string, options: SqliteOpenOptions): OpenedSqlite {
  const db = new BetterSqlite3(file, { timeout: options.busyTimeoutMs });
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
    const statements = retryWhileBusy(options.busyTimeoutMs, () => {
      if (db.pragma("journal_mode", { simple: true }) !== "wal") db.pragma("journal_mode = WAL");
      return prepareSchema(db);
    });
    db.pragma(`synchronous = ${options.durability === "full" ? "FULL" : "NORMAL"}`);
    return { db, statements, readonly: false };
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * A read-only connection. In a directory this process cannot write, SQLite cannot create the WAL index
 * (`-shm`) a WAL file needs, even to read: the file is then read into memory once (a snapshot as of the
 * open) when no `-wal` file holds changes the main file lacks.
 */
function openReadonly(file: string, options: SqliteOpenOptions): OpenedSqlite {
  let db = new BetterSqlite3(file, { readonly: true, fileMustExist: true, timeout: options.busyTimeoutMs });
  try {
    db.prepare("SELECT count(*) FROM sqlite_master").get();
  } catch (error) {
    db.close();
    if (!isReadonlyError(error) && sqliteCode(error) !== "SQLITE_CANTOPEN") throw error;
    db = openSnapshot(file, error);
  }
  try {
    return { db, statements: prepareReadonlySchema(db, file), readonly: true };
  } catch (error) {
    db.close();
    throw error;
  }
}

function openSnapshot(file: string, cause: unknown): BetterSqlite3.Database {
  const wal = `${file}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) {
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

/**
 * Prepares the statements without writing: `prepareSchema`'s one write (the schema version row) goes to a
 * temporary `meta` table that shadows the file's for that statement. A file that lacks a table, index or
 * column (not an Obelisk store, or one written by an older version) cannot be brought up to date read-only.
 */
function prepareReadonlySchema(db: BetterSqlite3.Database, file: string): SqliteStatements {
  db.exec("CREATE TEMP TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  try {
    return prepareSchema(db);
  } catch (error) {
    if (!isReadonlyError(error)) throw error;
    throw new ObeliskError(
      "STORE_ERROR",
      `cannot read ${file}: it is read-only and is not an Obelisk store of this version`,
      {
        cause: error,
        hint: "an empty file, another program's database or a store written by an older version; an older store is brought up to date by opening it once with write access",
        data: { reason: "readonly", file },
      },
    );
  } finally {
    db.exec("DROP TABLE temp.meta");
  }
}

/**
 * Opens a store file (creating it when missing): read-write when possible; read-only when asked, when the
 * file is not writable by this process, or when SQLite refuses to write it (a read-only directory).
 */
export function openSqlite(file: string, options: SqliteOpenOptions): OpenedSqlite {
  if (options.readonly !== true && mayWrite(file)) {
    try {
      return openWritable(file, options);
    } catch (error) {
      if (file === ":memory:" || !isReadonlyError(error) || !existsSync(file)) throw error;
    }
  }
  return openReadonly(file, options);
}
