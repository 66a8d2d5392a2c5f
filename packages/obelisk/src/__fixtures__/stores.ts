import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryStore, type StateStore } from "@obelisk/state";
import { createSqliteStore } from "@obelisk/state/sqlite";

/** A store factory for parameterized end-to-end tests. */
export interface StoreKind {
  readonly name: string;
  /** Opens a store (the same file for SQLite on every call within one test). */
  open(): StateStore;
  /** Removes temporary files. */
  cleanup(): void;
}

/** Memory and SQLite store factories. */
export function storeKinds(): StoreKind[] {
  let dir: string | undefined;
  return [
    { name: "memory", open: () => createMemoryStore(), cleanup: () => {} },
    {
      name: "sqlite",
      open: () => {
        dir ??= mkdtempSync(join(tmpdir(), "obelisk-engine-"));
        return createSqliteStore(join(dir, "state.db"));
      },
      cleanup: () => {
        if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
        dir = undefined;
      },
    },
  ];
}
