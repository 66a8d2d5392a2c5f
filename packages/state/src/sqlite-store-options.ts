import type { StoreOptions } from "./store-options.js";

/** Options of the SQLite backend. */
export interface SqliteStoreOptions extends StoreOptions {
  /**
   * `normal` (default): WAL + synchronous=NORMAL — a commit survives a process crash; the last commits may
   * be lost on power loss. `full`: synchronous=FULL — survives power loss, slower.
   */
  readonly durability?: "normal" | "full" | undefined;
  /**
   * How long a write (and opening a file another process is creating) waits for another connection's
   * write transaction, ms. Default 5,000.
   */
  readonly busyTimeoutMs?: number | undefined;
  /**
   * Open the file read-only: reads work, every write is refused (`STORE_ERROR`, `data.reason: "readonly"`)
   * and nothing in the file changes. Default: read-only only when the file exists and this process cannot
   * write it (or its directory). The file must exist and hold a store of this schema version (an empty
   * file or another program's database: `STORE_ERROR`, `data.reason: "not-a-store"`); nothing beside it is
   * left behind (a writable file is read through a connection that may change nothing, which removes
   * SQLite's `-wal` and `-shm` files when it closes).
   */
  readonly readonly?: boolean | undefined;
  /**
   * `true` (default): a missing or empty file becomes a new store, and another program's database gets the
   * store's tables beside its own — unless one of its tables, indexes or views has the name of one of the
   * store's with another shape (a `threads` table with other columns): that database is refused
   * (`STORE_ERROR`, `data: { reason: "not-a-store", file, clash: "<name>" }`). `"if-empty"`: a missing or
   * empty file becomes a new store; another program's database is refused (`not-a-store`) — what the CLI's
   * writing commands use. `false`: the file must already hold a store; a missing file, an empty one or
   * another program's database is refused (`not-a-store`). A refused file is left byte for byte as it was
   * (journal mode included). A store of an older schema version is still brought up to date when the file
   * can be written.
   */
  readonly create?: boolean | "if-empty" | undefined;
  /**
   * `true` (default): a writable open brings a store of an older schema version up to date in place (after
   * which builds of that older version refuse the file: `newer-version`). `false`: such a file is refused
   * instead (`STORE_ERROR`, `data: { reason: "older-version", file, fileVersion, readsVersion }`) and left
   * byte for byte as it was — for rolling deploys, where replicas of the older build still share the file;
   * open it once with migration enabled when every replica runs the new build (decision record 0072).
   * A store of this version is opened as usual (tables and indexes added without a new version are still
   * added: older builds of this version read them).
   */
  readonly migrate?: boolean | undefined;
  /** Cross-process lock tuning. */
  readonly lock?: SqliteLockOptions | undefined;
  /**
   * How many idle threads keep their in-memory model (folded state, variables; ~1.4 KB for a thread of one
   * number, more with its data) between uses. The file is the truth (every commit is written through), so
   * past this the least recently used idle thread's model is dropped and the next use reloads it from the
   * file. A thread a run of this store holds (its lock) is never dropped and not counted. Default
   * {@link DEFAULT_CACHED_THREADS} (1,000); `0` keeps none (every use between runs reloads); `Infinity`
   * keeps every thread touched until `close` (as before). A whole number >= 0 or `Infinity`, else `USAGE`.
   */
  readonly cachedThreads?: number | undefined;
}

/** Default of {@link SqliteStoreOptions.cachedThreads}: the models of the 1,000 threads used last stay. */
export const DEFAULT_CACHED_THREADS = 1000;

/** Options of the cross-process lock. */
export interface SqliteLockOptions {
  /** Poll interval while waiting for another process's lock, ms. Default 25. */
  readonly pollMs?: number | undefined;
  /** Heartbeat interval of a held lock, ms. Default 5,000. */
  readonly heartbeatMs?: number | undefined;
  /** A lock whose heartbeat is older than this is taken over, ms. Default 30,000. */
  readonly staleMs?: number | undefined;
}
