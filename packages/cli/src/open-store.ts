import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { StateStore } from "obelisk";
import { errorMessage, usageError } from "./usage-error.js";

/** The store used when `--store` is not given. */
export const DEFAULT_STORE = "sqlite:.obelisk/state.db";

/** Opens `--store`: `memory` or `sqlite:<file>` (the file's directory is created). Throws USAGE. */
export async function openStore(url: string, cwd: string): Promise<StateStore> {
  if (url === "memory") {
    const { createMemoryStore } = await import("obelisk");
    return createMemoryStore();
  }
  if (!url.startsWith("sqlite:")) {
    throw usageError(`unknown store "${url}": use memory or sqlite:<file>`);
  }
  const file = url.slice("sqlite:".length);
  if (file.length === 0) throw usageError("sqlite store needs a file: sqlite:<file>");
  const path = file === ":memory:" ? file : resolve(cwd, file);
  try {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    const { createSqliteStore } = await import("obelisk/sqlite");
    return await createSqliteStore(path);
  } catch (error) {
    throw usageError(`cannot open store ${url}: ${errorMessage(error)}`, error);
  }
}
