import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ObeliskError } from "@obelisk/core";
import type { StateStore } from "obelisk";
import type { CliIo } from "./cli-io.js";
import { errorMessage, usageError } from "./usage-error.js";

/** The store used when `--store` is not given. */
export const DEFAULT_STORE = "sqlite:.obelisk/state.db";

/**
 * What a command does with its store, which decides what a store file that does not exist means:
 * - `create` (run, resume, state set): the file and its directory are created.
 * - `existing` (state summary/get/reset/keep, runs list/show): a missing file is refused (USAGE), so a
 *   mistyped `--store` creates nothing; the default store, when missing, is an empty store (no runs, no
 *   variables) and nothing is created.
 * - `context` (validate, graph: the store only gives the thread's state to validate against): a missing
 *   file is read as an empty store with a warning (none for the default store); nothing is created.
 */
export type StoreAccess = "create" | "existing" | "context";

/** Opens `--store`: `memory` or `sqlite:<file>` (see {@link StoreAccess}). Throws USAGE. */
export async function openStore(url: string, io: CliIo, access: StoreAccess): Promise<StateStore> {
  if (url === "memory") return emptyStore();
  if (!url.startsWith("sqlite:")) {
    throw usageError(`unknown store "${url}": use memory or sqlite:<file>`);
  }
  const file = url.slice("sqlite:".length);
  if (file.length === 0) throw usageError("sqlite store needs a file: sqlite:<file>");
  const path = file === ":memory:" ? file : resolve(io.cwd, file);
  if (path !== ":memory:" && access !== "create" && !existsSync(path)) {
    if (path === resolve(io.cwd, DEFAULT_STORE.slice("sqlite:".length))) return emptyStore();
    if (access === "existing") {
      throw usageError(
        `store file ${file} does not exist`,
        undefined,
        "check --store (nothing was created); obelisk run and obelisk state set create a store",
      );
    }
    io.stderr.write(`warning: store file ${file} does not exist: validating against an empty thread\n`);
    return emptyStore();
  }
  try {
    if (access === "create" && path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    const { createSqliteStore } = await import("obelisk/sqlite");
    return await createSqliteStore(path);
  } catch (error) {
    const hint = ObeliskError.is(error) ? error.hint : undefined;
    throw usageError(`cannot open store ${url}: ${errorMessage(error)}`, error, hint);
  }
}

async function emptyStore(): Promise<StateStore> {
  const { createMemoryStore } = await import("obelisk");
  return createMemoryStore();
}
