import { createMemoryStore, type StateStore } from "@obelisk/state";
import { createSqliteStore } from "@obelisk/state/sqlite";
import { sqliteTables, storeSnapshot } from "./store-snapshot.js";
import { tempStoreFiles } from "./temp-store-file.js";

/** A store to test against, and a snapshot of all it holds (for SQLite, its file's tables too). */
export interface SnapshotStore {
  readonly store: StateStore;
  /** Everything the store holds about `threads` (and, for SQLite, every row of its file), as JSON text. */
  snapshot(threads: readonly string[]): Promise<string>;
}

/** A backend by name; `open` makes a new, empty store of it. */
export interface SnapshotStoreKind {
  readonly name: string;
  open(): SnapshotStore;
}

/**
 * The memory and SQLite backends with full snapshots. Call inside a `describe`: the SQLite files are
 * removed after each test (close the stores first).
 */
export function snapshotStoreKinds(): SnapshotStoreKind[] {
  const nextFile = tempStoreFiles("obelisk-snapshot-");
  return [
    {
      name: "memory",
      open: () => {
        const store = createMemoryStore();
        return { store, snapshot: (threads) => storeSnapshot(store, threads) };
      },
    },
    {
      name: "sqlite",
      open: () => {
        const file = nextFile();
        const store = createSqliteStore(file);
        return {
          store,
          snapshot: async (threads) =>
            JSON.stringify({ api: await storeSnapshot(store, threads), tables: sqliteTables(file) }),
        };
      },
    },
  ];
}
