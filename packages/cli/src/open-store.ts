import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { ObeliskError } from "@obelisk/core";
import type { RetentionPolicy, StateStore } from "obelisk";
import type { SqliteStoreOptions } from "obelisk/sqlite";
import { cliCommand } from "./cli-command.js";
import type { CliIo } from "./cli-io.js";
import { stopIfEscaped } from "./command-stop.js";
import { checkStoreFile, makeStoreFolders } from "./store-path.js";
import { errorMessage, usageError } from "./usage-error.js";

/** The store used when `--store` is not given. */
export const DEFAULT_STORE = "sqlite:.obelisk/state.db";

/**
 * What a command does with its store, which decides what a store file that does not exist, or that holds
 * no store, means:
 * - `create` (run, resume, state set): a missing file and its directory are created; an empty file
 *   becomes a store; another program's database (a non-empty file that holds no store) is refused, as by
 *   every access: the CLI never adds the store's tables to it (a mistyped `--store` would otherwise change
 *   another program's file; the library's `createSqliteStore(file)` still can, on purpose).
 * - `edit` (state reset/keep) and `read` (state summary/get, runs list/show): a missing file is refused
 *   (USAGE), so a mistyped `--store` creates nothing; the default store, when missing, is an empty store (no
 *   runs, no variables) and nothing is created. `read` opens the file read-only: nothing in it changes.
 * - `context` (validate, graph: the store only gives the thread's state to validate against): read-only;
 *   a missing file is read as an empty store with a warning (none for the default store).
 * - `check` (what run and resume check before they open the store to write: the plan, its approval, the
 *   run id): read-only; a missing or empty file is an empty store, silently (the command may go on to
 *   create it, or make a store of it).
 * Except for `create`, a file that is not an Obelisk store (empty, another program's database) is refused
 * (USAGE) and left as it is; `create` refuses only another program's database.
 */
export type StoreAccess = "create" | "edit" | "read" | "context" | "check";

/**
 * Loads the store module `--store` names (`obelisk/sqlite` for `sqlite:<file>`) without opening anything:
 * engine-session.ts does it before a TypeScript tools module registers its module hooks, which would
 * otherwise see each of its modules load.
 */
export async function loadStoreModule(url: string): Promise<void> {
  if (url.startsWith("sqlite:")) await import("obelisk/sqlite");
}

/**
 * Opens `--store`: `memory` or `sqlite:<file>` (see {@link StoreAccess}), with `retention` as the store's
 * own (`--retention`, `OBELISK_RETENTION`; the engine then applies it too: decisions 0104, 0109). Throws USAGE.
 */
export async function openStore(
  url: string,
  io: CliIo,
  access: StoreAccess,
  retention?: RetentionPolicy,
): Promise<StateStore> {
  const own = retention === undefined ? {} : { retention };
  if (url === "memory") return emptyStore(own);
  if (!url.startsWith("sqlite:")) {
    throw usageError(`unknown store "${url}": use memory or sqlite:<file>`);
  }
  const file = url.slice("sqlite:".length);
  if (file.length === 0) throw usageError("sqlite store needs a file: sqlite:<file>");
  const path = file === ":memory:" ? file : resolve(io.cwd, file);
  // read before anything is created: a bad value is refused with the file left as it is
  const migrate = migrateOf(io);
  // an empty file is what `create` makes a store of: the check before it reads it as an empty store
  if (access === "check" && path !== ":memory:" && existsSync(path) && statSync(path).size === 0)
    return emptyStore(own);
  if (path !== ":memory:" && access !== "create" && !existsSync(path)) {
    if (access === "check" || path === resolve(io.cwd, DEFAULT_STORE.slice("sqlite:".length)))
      return emptyStore(own);
    if (access !== "context") {
      throw usageError(
        `store file ${file} does not exist`,
        undefined,
        `check --store (nothing was created); ${createsStore(cliCommand(io.env))} create a store`,
      );
    }
    io.stderr.write(`warning: store file ${file} does not exist: validating against an empty thread\n`);
    return emptyStore(own);
  }
  const { createSqliteStore } = await import("obelisk/sqlite");
  // nothing is created or opened once the command stopped (an exception escaped while it started)
  stopIfEscaped();
  if (path !== ":memory:") {
    if (access === "create") makeStoreFolders(path, url);
    checkStoreFile(path, url);
  }
  try {
    return await createSqliteStore(
      path,
      path === ":memory:" ? own : { ...SQLITE_OPTIONS[access], ...(migrate ? {} : { migrate }), ...own },
    );
  } catch (error) {
    throw usageError(`cannot open store ${url}: ${errorMessage(error)}`, error, hintOf(error, io));
  }
}

/** The environment variable that keeps the CLI from upgrading an older store file (decision 0072, Amended). */
const MIGRATE_VARIABLE = "OBELISK_SQLITE_MIGRATE";

/**
 * Whether a writable open may bring an older store file up to date: `OBELISK_SQLITE_MIGRATE=false` says no
 * (a rolling deploy: replicas of the older build share the file), unset or `true` yes. Another value is USAGE,
 * before anything is opened: a misspelt `no` must not migrate the fleet's file.
 */
function migrateOf(io: CliIo): boolean {
  const value = io.env[MIGRATE_VARIABLE];
  if (value === undefined || value === "" || value === "true") return true;
  if (value === "false") return false;
  throw usageError(
    `${MIGRATE_VARIABLE} must be true or false, not ${JSON.stringify(value)}`,
    undefined,
    `${MIGRATE_VARIABLE}=false keeps an older store file as it is (refused instead of upgraded); leave it unset to upgrade`,
  );
}

/** How each access opens a SQLite file (`sqlite::memory:` is always a new store: nothing to leave as it was). */
const SQLITE_OPTIONS = {
  create: { create: "if-empty" },
  edit: { create: false },
  read: { readonly: true },
  context: { readonly: true },
  check: { readonly: true },
} as const satisfies Record<StoreAccess, SqliteStoreOptions>;

/** The commands that create a store, as a hint names them (`obelisk run and obelisk state set`). */
export function createsStore(command: string): string {
  return `${command} run and ${command} state set`;
}

function hintOf(error: unknown, io: CliIo): string | undefined {
  if (!ObeliskError.is(error)) return undefined;
  const reason = (error.data as { reason?: unknown } | undefined)?.reason;
  if (reason === "not-a-store")
    return `check --store (the file was left as it was); ${createsStore(cliCommand(io.env))} create a store in a missing or empty file, never in another program's database`;
  if (reason === "older-version")
    return `the file was left as it was; once every process sharing it runs this build, run the command without ${MIGRATE_VARIABLE}=false to bring it up to date`;
  return error.hint;
}

async function emptyStore(own: { retention?: RetentionPolicy }): Promise<StateStore> {
  const { createMemoryStore } = await import("obelisk");
  return createMemoryStore(own);
}
