import { afterAll, afterEach } from "vitest";
import { createMemoryStore } from "../memory-store.js";
import type { StateStore } from "../store-types.js";
import { sqliteTempFiles } from "./sqlite-store-files.js";

/** A backend a `describe.each` runs over: `open()` makes a fresh store (SQLite on a new temporary file). */
export interface StoreKind {
  readonly name: "memory" | "sqlite";
  readonly open: () => StateStore;
}

/** Memory and SQLite (files in a temporary folder named by `prefix`, removed after the file's tests). */
export function bothStoreKinds(prefix: string): readonly StoreKind[] {
  const files = sqliteTempFiles(prefix);
  afterAll(files.closeAll);
  return [
    { name: "memory", open: () => createMemoryStore() },
    { name: "sqlite", open: () => files.open(files.freshFile()) },
  ];
}

/**
 * Inside a `describe`: `open()` gives a store of `kind`, closed after each test (so a test's stores never
 * outlive it).
 */
export function storesClosedAfterEach(kind: StoreKind): () => StateStore {
  const opened: StateStore[] = [];
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });
  return () => {
    const store = kind.open();
    opened.push(store);
    return store;
  };
}
