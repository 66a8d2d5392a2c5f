import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/** better-sqlite3, loaded from @obelisk/state's own dependencies (the test package does not depend on it). */
const requireFromState = createRequire(
  fileURLToPath(new URL("../../packages/state/package.json", import.meta.url)),
);
const Database = requireFromState("better-sqlite3") as new (
  file: string,
  options?: { readonly?: boolean },
) => { pragma(text: string, options?: { simple?: boolean }): unknown; close(): void };

/** `PRAGMA integrity_check` of a database file ("ok" when sound). */
export function integrityCheck(file: string): unknown {
  const db = new Database(file);
  try {
    return db.pragma("integrity_check", { simple: true });
  } finally {
    db.close();
  }
}
