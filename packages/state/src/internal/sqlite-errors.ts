import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ObeliskError } from "@obelisk/core";
import { isClosedConnectionError, isCorruptError, isReadonlyError } from "./sqlite-codes.js";
import { blockingSideFile, sideFileError } from "./sqlite-side-files.js";
import { storeClosedError } from "./store-closed.js";

/**
 * A failure of a SQLite store's `action` as an ObeliskError: one already is kept, a connection closed under
 * the action is `STORE_CLOSED`, a write the file refuses is {@link readonlyError}, a damaged file
 * {@link corruptError}, anything else `STORE_ERROR`.
 */
export const wrap = (action: string, error: unknown, file?: string): ObeliskError => {
  if (ObeliskError.is(error)) return error;
  if (isClosedConnectionError(error)) return storeClosedError("sqlite");
  if (file !== undefined && isReadonlyError(error)) return refusedWriteError(file, action, error);
  if (file !== undefined && isCorruptError(error)) return corruptError(file, error);
  return new ObeliskError("STORE_ERROR", `sqlite ${action} failed: ${(error as Error).message}`, {
    cause: error,
  });
};

/** The error of a write to a store that cannot be written: `STORE_ERROR` with `data.reason: "readonly"`. */
export function readonlyError(file: string, action: string, cause?: unknown): ObeliskError {
  return new ObeliskError("STORE_ERROR", `cannot ${action}: the SQLite store ${file} is read-only`, {
    ...(cause === undefined ? {} : { cause }),
    hint: "this process may not write the file or its directory (or it was opened read-only); reading works",
    data: { reason: "readonly", file },
  });
}

/**
 * The error of a write SQLite refused (`SQLITE_READONLY` and its extended codes): {@link sideFileError}
 * when a `-wal` or `-shm` beside the file is one this process may not write (`mayWrite` checks a path;
 * by default, whether the process may write it), else {@link readonlyError}.
 */
export function refusedWriteError(
  file: string,
  action: string,
  cause: unknown,
  mayWrite?: (path: string) => boolean,
): ObeliskError {
  const side = file === ":memory:" ? undefined : blockingSideFile(file, mayWrite);
  return side === undefined ? readonlyError(file, action, cause) : sideFileError(file, action, side, cause);
}

/** A file SQLite cannot read as a database: `STORE_ERROR` with `data.reason: "corrupt"`. */
export function corruptError(file: string, cause: unknown): ObeliskError {
  return new ObeliskError(
    "STORE_ERROR",
    `${file} is not a SQLite database, or a damaged one (SQLite: ${(cause as Error).message})`,
    {
      cause,
      hint: "restore the file from a backup, or use another file: the store never repairs or overwrites it",
      data: { reason: "corrupt", file },
    },
  );
}

/** The error when `file`'s folder does not exist (SQLite creates the file, never its folder), else undefined. */
export function missingFolderError(file: string, error: unknown): ObeliskError | undefined {
  if (ObeliskError.is(error) || file === ":memory:" || file.startsWith("file:")) return undefined;
  const folder = dirname(resolve(file));
  if (existsSync(folder)) return undefined;
  return new ObeliskError(
    "STORE_ERROR",
    `cannot open the SQLite store ${file}: its folder ${folder} does not exist`,
    {
      cause: error,
      hint: `create the folder first (mkdirSync(${JSON.stringify(dirname(file))}, { recursive: true })): the store creates its file, not its folder`,
      data: { reason: "no-folder", file },
    },
  );
}

/** How to build better-sqlite3's native module, with either package manager. */
const BUILD_STEPS =
  "`npm rebuild better-sqlite3` (npm may have skipped its install script: allow it), or with pnpm list it in onlyBuiltDependencies (or run `pnpm approve-builds`) and reinstall";

/**
 * The error when better-sqlite3's native module is missing (its install script did not run) or does not
 * load (built for another Node.js or platform): `STORE_ERROR` with `data.reason` `native-missing` or
 * `native-mismatch` and a hint that says how to build it; undefined for any other error.
 */
export function nativeModuleError(file: string, error: unknown): ObeliskError | undefined {
  if (!(error instanceof Error) || ObeliskError.is(error)) return undefined;
  if (error.message.startsWith("Could not locate the bindings file"))
    return new ObeliskError(
      "STORE_ERROR",
      "the SQLite store needs better-sqlite3's native module, which was never built on this machine",
      { cause: error, hint: `build it: ${BUILD_STEPS}`, data: { reason: "native-missing", file } },
    );
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ERR_DLOPEN_FAILED" && error.message.includes("better_sqlite3.node")) {
    const firstLine = error.message.split("\n")[0] as string;
    const why = error.message.includes("NODE_MODULE_VERSION")
      ? "it was built for another Node.js version"
      : firstLine.slice(firstLine.lastIndexOf(":") + 1).trim();
    return new ObeliskError(
      "STORE_ERROR",
      `better-sqlite3's native module does not load in this Node.js ${process.version}: ${why}`,
      {
        cause: error,
        hint: `rebuild it with this Node.js: ${BUILD_STEPS}`,
        data: { reason: "native-mismatch", file },
      },
    );
  }
  return undefined;
}
