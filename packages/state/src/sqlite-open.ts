import { existsSync } from "node:fs";
import { ObeliskError } from "@obelisk/core";
import BetterSqlite3 from "better-sqlite3";
import { isReadonlyError, PAUSE, retryWhileBusy } from "./internal/sqlite-codes.js";
import { mayWrite, type ReadConnection, readConnection } from "./internal/sqlite-read-connection.js";
import {
  addMissingTablesAsTemp,
  ensureSchema,
  prepareStatements,
  SQLITE_SCHEMA_VERSION,
  type SqliteStatements,
  type StoreFileKind,
  schemaVersion,
  storeFileKind,
} from "./internal/sqlite-schema.js";
import { findSchemaClash } from "./internal/sqlite-schema-clash.js";
import { blockingSideFile, sideFileError, writeRefusal } from "./internal/sqlite-side-files.js";

/** A store file's connection, ready for the store: pragmas set, schema checked, statements prepared. */
export interface OpenedSqlite {
  readonly db: BetterSqlite3.Database;
  readonly statements: SqliteStatements;
  /** True when the connection cannot write (the store refuses every write with a clear error). */
  readonly readonly: boolean;
  /** Closes the connection, then removes the `-wal`/`-shm` a read-only connection made (see `trackSideFiles`). */
  readonly close: () => void;
}

/** How to open a store file. */
export interface SqliteOpenOptions {
  /** Open read-only even when the file is writable. */
  readonly readonly?: boolean | undefined;
  /**
   * True (default): make a missing or empty file a store, and add the store's tables to another program's
   * database unless some clash with its own. `"if-empty"`: the same, but refuse another program's database.
   * False: refuse a file that holds no store yet (missing, empty, another program's database).
   */
  readonly create?: boolean | "if-empty" | undefined;
  /** True (default): bring a store of an older schema version up to date. False: refuse it, unchanged. */
  readonly migrate?: boolean | undefined;
  /** How long opening and writes wait for another connection, ms. */
  readonly busyTimeoutMs: number;
  /** `synchronous` pragma of a writable connection. */
  readonly durability?: "normal" | "full" | undefined;
}

const NOT_A_STORE = {
  missing: "it does not exist",
  empty: "an empty file",
  foreign: "another program's database",
} as const;

/** The refusal of a file that holds no store where one must exist: STORE_ERROR, `data.reason: "not-a-store"`. */
function notAStore(file: string, kind: keyof typeof NOT_A_STORE, readonly = false): ObeliskError {
  return new ObeliskError("STORE_ERROR", `${file} is not an Obelisk store (${NOT_A_STORE[kind]})`, {
    hint:
      kind === "missing" && readonly
        ? `no store at ${file}: opening read-only creates nothing; check the file name, or open it writable once (a run creates it)`
        : "check the file name; a store is created only by opening a new or empty file for writing",
    data: { reason: "not-a-store", file },
  });
}

/** The refusal of another program's database with an object named like one of the store's (see {@link findSchemaClash}). */
function clashError(
  file: string,
  clash: { readonly name: string; readonly description: string },
): ObeliskError {
  return new ObeliskError(
    "STORE_ERROR",
    `${file} is not an Obelisk store (another program's database: ${clash.description})`,
    {
      hint: "give the store a file of its own: its tables cannot be added beside this database's (the file was left as it was)",
      data: { reason: "not-a-store", file, clash: clash.name },
    },
  );
}

/**
 * The refusal of a store written by a newer schema version: this build would misread or damage it. Names
 * the file's version and the one this build reads (`data.fileVersion`, `data.readsVersion`).
 */
function newerStore(db: BetterSqlite3.Database, file: string): ObeliskError {
  const fileVersion = schemaVersion(db);
  return new ObeliskError(
    "STORE_ERROR",
    `${file} is a store of schema version ${fileVersion}, newer than this Obelisk reads (${SQLITE_SCHEMA_VERSION})`,
    {
      hint: "open it with the Obelisk version that wrote it, or a newer one; it was left as it was",
      data: { reason: "newer-version", file, fileVersion, readsVersion: SQLITE_SCHEMA_VERSION },
    },
  );
}

/**
 * The refusal of a store of an older schema version opened with `migrate: false`: bringing it up to date
 * would lock the builds that wrote it out of the file (`newer-version`). Names both versions.
 */
function olderStore(db: BetterSqlite3.Database, file: string): ObeliskError {
  const fileVersion = schemaVersion(db);
  return new ObeliskError(
    "STORE_ERROR",
    `${file} is a store of schema version ${fileVersion}, older than this Obelisk writes (${SQLITE_SCHEMA_VERSION}), and migrate is false`,
    {
      hint: `it was left as it was; open it with migrate: true (the default) once every process sharing it runs this build — builds reading version ${fileVersion} refuse it afterwards`,
      data: { reason: "older-version", file, fileVersion, readsVersion: SQLITE_SCHEMA_VERSION },
    },
  );
}

/**
 * Throws when a file that holds `kind` may not be made a store (see {@link SqliteOpenOptions.create}), or
 * brought up to date ({@link SqliteOpenOptions.migrate}):
 * asked before, and again inside, the transaction that would create the schema or migrate an older store,
 * before it writes anything. Every file that holds tables is checked for clashes, an older store too
 * ({@link storeFileKind} calls a file with clashes foreign already: this keeps the rule in one place).
 */
function admitter(
  db: BetterSqlite3.Database,
  file: string,
  { create, migrate }: Pick<SqliteOpenOptions, "create" | "migrate">,
): (kind: StoreFileKind) => void {
  return (kind: StoreFileKind): void => {
    if (kind === "newer") throw newerStore(db, file);
    if (kind === "older" && migrate === false) throw olderStore(db, file);
    if (create === false && (kind === "empty" || kind === "foreign")) throw notAStore(file, kind);
    if (kind === "empty") return;
    if (kind === "foreign" && create === "if-empty") throw notAStore(file, kind);
    const clash = findSchemaClash(db);
    if (clash !== undefined) throw clashError(file, clash);
  };
}

/**
 * Before a read-write connection opens a file with a `-wal` beside it: refuses the file, if it is to be
 * refused, through a read connection (see {@link readConnection}). The read-write connection would fold
 * the `-wal` into the file and remove `-wal` and `-shm` when it closes, so a refusal decided there changed
 * the file's bytes. Errors other than a refusal are left to the read-write open, which meets them too.
 */
function refuseBeforeWriting(file: string, options: SqliteOpenOptions): void {
  if (file === ":memory:" || !existsSync(`${file}-wal`)) return;
  let connection: ReadConnection;
  try {
    connection = readConnection(file, options);
  } catch {
    return;
  }
  try {
    const { db } = connection;
    const admit = admitter(db, file, options);
    retryWhileBusy(options.busyTimeoutMs, () => admit(storeFileKind(db)));
  } finally {
    connection.close();
  }
}

/**
 * A read-write connection to a store file that holds a complete store afterwards, or that was left as it
 * was: the schema is created in one transaction (see {@link ensureSchema}) and only then is the file
 * switched to WAL, so a refused or failed open changes nothing in it, journal mode included; a file with
 * a `-wal` beside it is refused before the read-write connection opens (see {@link refuseBeforeWriting}).
 * A connection that cannot write because another user's `-wal`/`-shm` is there (a read in progress, or
 * one killed) is closed and opened again until they are gone, for up to `busyTimeoutMs`; then the open
 * fails with `STORE_ERROR` reason `side-file` naming the file and its owner.
 */
function openWritable(file: string, options: SqliteOpenOptions): OpenedSqlite {
  refuseBeforeWriting(file, options);
  const deadline = Date.now() + options.busyTimeoutMs;
  for (let attempt = 1, pauseMs = 1; ; attempt++, pauseMs = Math.min(pauseMs * 2, 50)) {
    const opened = openWritableOnce(file, options);
    const refusal = writeRefusal(opened.db);
    if (refusal === undefined) return opened;
    opened.close();
    const side = blockingSideFile(file);
    if (side === undefined) {
      // once more: a reader may have removed its side files since; else a read-only file or directory
      if (attempt > 1) throw refusal;
      continue;
    }
    // another user's read made them (it removes them when it closes): wait for it, as for a lock
    if (Date.now() + pauseMs > deadline) throw sideFileError(file, `open ${file} for writing`, side, refusal);
    Atomics.wait(PAUSE, 0, 0, pauseMs);
  }
}

/**
 * The size the `-wal` is cut back to once SQLite starts it over (`journal_size_limit`): about what a
 * checkpoint interval writes (1,000 pages of 4 KiB), so steady use never pays for it.
 */
const WAL_SIZE_LIMIT_BYTES = 4 * 1024 * 1024;

/**
 * One read-write connection (see {@link openWritable}), which may still be unable to write when SQLite
 * could open a side file for reading only.
 */
function openWritableOnce(file: string, options: SqliteOpenOptions): OpenedSqlite {
  const db = new BetterSqlite3(file, { timeout: options.busyTimeoutMs });
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
    const admit = admitter(db, file, options);
    retryWhileBusy(options.busyTimeoutMs, () => {
      ensureSchema(db, admit);
      if (db.pragma("journal_mode", { simple: true }) !== "wal") db.pragma("journal_mode = WAL");
    });
    db.pragma(`synchronous = ${options.durability === "full" ? "FULL" : "NORMAL"}`);
    // the -wal keeps its high-water size (a burst of large writes left it at tens of MB for good): SQLite
    // truncates it to this when it starts over after a checkpoint
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    return { db, statements: prepareStatements(db), readonly: false, close: () => db.close() };
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * A read-only connection. A file this process may write gets a read-write connection that SQLite forbids
 * every change (`query_only`): unlike a read-only one, it removes the `-wal` and `-shm` files it needed
 * when it closes, so reading leaves nothing behind. In a directory this process cannot write, SQLite
 * cannot create the WAL index (`-shm`) a WAL file needs, even to read: the file is then read into memory
 * once (a snapshot as of the open) when no `-wal` file holds changes the main file lacks.
 */
function openReadonly(file: string, options: SqliteOpenOptions): OpenedSqlite {
  const { db, close } = readConnection(file, options);
  try {
    return {
      db,
      statements: retryWhileBusy(options.busyTimeoutMs, () => existingSchema(db, file)),
      readonly: true,
      close,
    };
  } catch (error) {
    close();
    throw error;
  }
}

/**
 * The statements of a file opened read-only, which must hold a store of this schema version: an empty file
 * and another program's database are not stores (`not-a-store`); a store of an older version cannot be
 * brought up to date without writing (`readonly`).
 */
function existingSchema(db: BetterSqlite3.Database, file: string): SqliteStatements {
  const kind = storeFileKind(db);
  if (kind === "newer") throw newerStore(db, file);
  if (kind === "empty" || kind === "foreign") throw notAStore(file, kind);
  if (kind === "older") {
    throw new ObeliskError(
      "STORE_ERROR",
      `cannot read ${file} read-only: it is a store of an older version, brought up to date only by writing it`,
      {
        hint: "open it once with write access (a run, or any store opened writable) to bring it up to date",
        data: { reason: "readonly", file },
      },
    );
  }
  addMissingTablesAsTemp(db);
  return prepareStatements(db);
}

/**
 * Opens a store file (creating it when missing, unless `create` is false or it is opened read-only, which
 * refuse a missing file as `not-a-store`): read-write when possible; read-only when asked, when the file is
 * not writable by this process, or when SQLite refuses to write it (a read-only directory).
 */
export function openSqlite(file: string, options: SqliteOpenOptions): OpenedSqlite {
  const readonly = options.readonly === true;
  if ((options.create === false || readonly) && file !== ":memory:" && !existsSync(file))
    throw notAStore(file, "missing", readonly);
  if (!readonly && mayWrite(file)) {
    try {
      return openWritable(file, options);
    } catch (error) {
      if (file === ":memory:" || !isReadonlyError(error) || !existsSync(file)) throw error;
    }
  }
  return openReadonly(file, options);
}
