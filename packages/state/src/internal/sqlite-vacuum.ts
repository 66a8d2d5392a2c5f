import { existsSync, statSync } from "node:fs";
import type { Database } from "better-sqlite3";
import type { VacuumResult } from "../store-types.js";

/** Bytes of a file, 0 when there is none. */
const sizeOf = (path: string): number => (existsSync(path) ? statSync(path).size : 0);

/** True when the database has a file of its own (not `:memory:`). */
const hasFile = (file: string): boolean => file !== ":memory:" && existsSync(file);

/**
 * The store's bytes on disk: the main file and its `-wal` (the `-shm` index is a fixed-size map, not data);
 * a database with no file of its own (`:memory:`) answers its pages.
 */
function storeBytes(db: Database, file: string): number {
  if (!hasFile(file)) {
    const pages = Number(db.pragma("page_count", { simple: true }));
    return pages * Number(db.pragma("page_size", { simple: true }));
  }
  return sizeOf(file) + sizeOf(`${file}-wal`);
}

/**
 * Runs SQLite's `VACUUM` on a store's connection, synchronously (no other work of this process can come in
 * between): `assertIdle` first (it throws to refuse, before anything is written), then the sizes on disk,
 * then a WAL checkpoint (TRUNCATE): what the `-wal` held goes into the main file and the `-wal` is emptied
 * (it keeps its high-water size otherwise), so the `VACUUM` reads one file and its own `-wal` starts
 * empty. In WAL mode `VACUUM` writes the new pages to the `-wal`; a checkpoint again copies them back and
 * truncates the main file to its new size. A checkpoint that another connection's open read keeps from
 * finishing leaves part of the `-wal`: `bytesAfter` counts it.
 */
export function vacuumDatabase(db: Database, file: string, assertIdle: () => void): VacuumResult {
  assertIdle();
  const bytesBefore = storeBytes(db, file);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.exec("VACUUM");
  db.pragma("wal_checkpoint(TRUNCATE)");
  const bytesAfter = storeBytes(db, file);
  if (!hasFile(file)) return { bytesBefore, bytesAfter };
  return { bytesBefore, bytesAfter, walBytesAfter: sizeOf(`${file}-wal`) };
}
