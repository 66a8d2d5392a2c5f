/** The SQLite error code of `error` (`SQLITE_BUSY`, …), or "". */
export const sqliteCode = (error: unknown): string => String((error as { code?: unknown }).code ?? "");
/** SQLITE_BUSY and its extended codes: another connection holds a lock SQLite would not wait for. */
const isBusy = (error: unknown): boolean => /^SQLITE_BUSY(_|$)/.test(sqliteCode(error));
/** SQLITE_READONLY and its extended codes (a read-only file, or a directory where -wal/-shm cannot be made). */
export const isReadonlyError = (error: unknown): boolean => /^SQLITE_READONLY(_|$)/.test(sqliteCode(error));
/** SQLITE_NOTADB and SQLITE_CORRUPT (with extended codes): the file is not a SQLite database, or a damaged one. */
export const isCorruptError = (error: unknown): boolean =>
  /^SQLITE_(NOTADB|CORRUPT)(_|$)/.test(sqliteCode(error));

/** better-sqlite3's error for a statement on a closed connection (the store was closed under an action). */
export const isClosedConnectionError = (error: unknown): boolean =>
  error instanceof TypeError && error.message === "The database connection is not open";

/** A cell to wait on: `Atomics.wait` on it pauses the thread for a time (nothing ever notifies it). */
export const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `step` again while it fails with SQLITE_BUSY, for up to `timeoutMs` (short blocking pauses, as
 * SQLite's own busy handler makes). Needed when several processes open one fresh file at once: switching
 * a new file to WAL takes an exclusive lock, and SQLite answers SQLITE_BUSY at once there instead of
 * waiting `busy_timeout` (seen as "database is locked" from the second of three parallel `validate`s).
 * Every step retried is idempotent (one transaction that checks what the file holds first, the journal mode).
 */
export function retryWhileBusy<T>(timeoutMs: number, step: () => T): T {
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
