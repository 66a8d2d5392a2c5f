import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ObeliskError } from "@obelisk/core";
import { isCorruptError, isReadonlyError } from "./sqlite-codes.js";
import { blockingSideFile, sideFileError } from "./sqlite-side-files.js";

/**
 * A failure of a SQLite store's `action` as an ObeliskError: one already is kept, a write the file refuses
 * is {@link readonlyError}, a damaged file {@link corruptError}, anything else `STORE_ERROR`.
 */
export const wrap = (action: string, error: unknown, file?: string): ObeliskError => {
  if (ObeliskError.is(error)) return error;
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
