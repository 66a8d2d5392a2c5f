import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { manualClock } from "../conformance/commit-fixtures.js";
import { createSqliteStore, type SqliteStoreOptions } from "../sqlite-store.js";
import type { StateStore } from "../store-types.js";

/**
 * Store files in a temporary folder: `freshFile()` names a new one, `open(file, options)` opens a store on
 * it (every store opened is tracked), and `closeAll` closes them all and removes the folder.
 */
export function sqliteTempFiles(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let counter = 0;
  const stores: StateStore[] = [];
  const freshFile = (): string => join(dir, `store-${++counter}.db`);
  const open = (file: string, options: SqliteStoreOptions = {}): StateStore => {
    const store = createSqliteStore(file, options);
    stores.push(store);
    return store;
  };
  const closeAll = async (): Promise<void> => {
    for (const store of stores) await store.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  return { freshFile, open, closeAll };
}

/**
 * Store files in a temporary folder for the lock tests: each file has one manual clock, stores opened on
 * it (each another connection, as another process's or engine's would be) send no heartbeat during a test
 * — the clock alone decides staleness —, and `raw` runs SQL on a connection of its own. `closeAll` closes
 * every store and removes the folder.
 */
export function sqliteStoreFiles(prefix: string) {
  const files = sqliteTempFiles(prefix);
  const storeFile = () => {
    const file = files.freshFile();
    const clock = manualClock();
    const open = (options: SqliteStoreOptions = {}): StateStore =>
      files.open(file, { now: clock.now, lock: { heartbeatMs: 29_000 }, ...options });
    const raw = (sql: string, ...params: unknown[]): unknown[] => {
      const db = new Database(file);
      try {
        const statement = db.prepare(sql);
        return statement.reader ? statement.all(...params) : [statement.run(...params)];
      } finally {
        db.close();
      }
    };
    return { file, clock, open, raw };
  };
  return { storeFile, closeAll: files.closeAll };
}
