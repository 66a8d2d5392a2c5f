import { accessSync, constants, existsSync, mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { usageError } from "./usage-error.js";

const CHECK_STORE = "check --store (nothing was created)";

/**
 * Makes the folders a new store file needs, one level at a time (`mkdir`: `mkdirSync`, or a test's stand-in).
 * `mkdirSync(…, { recursive: true })` spins for ever where a missing folder's parent answers ENOENT although
 * it exists (`/proc/nope/x.db`), and says EEXIST when a parent is a file: both become USAGE naming the folder.
 */
export function makeStoreFolders(file: string, url: string, mkdir: (path: string) => void = mkdirSync): void {
  const missing: string[] = [];
  let folder = dirname(file);
  while (!existsSync(folder)) {
    missing.push(folder);
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  if (existsSync(folder) && !statSync(folder).isDirectory())
    throw usageError(`cannot open store ${url}: ${folder} is a file, not a folder`, undefined, CHECK_STORE);
  for (const level of missing.reverse()) {
    try {
      mkdir(level);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "error";
      // another process creating a store in the same folders made this one first
      if (code === "EEXIST" && statSync(level).isDirectory()) continue;
      throw usageError(
        `cannot open store ${url}: cannot create the folder ${level} (${code})`,
        error,
        "check --store (no store file was created)",
      );
    }
  }
}

/**
 * USAGE for a store path that exists but cannot be a store file here: a folder, or a file this user cannot
 * read. A file it can read but not write opens read-only; a write is then refused with STORE_ERROR.
 */
export function checkStoreFile(file: string, url: string): void {
  if (!existsSync(file)) return;
  if (statSync(file).isDirectory())
    throw usageError(
      `cannot open store ${url}: ${file} is a folder, not a store file`,
      undefined,
      CHECK_STORE,
    );
  try {
    accessSync(file, constants.R_OK);
  } catch (error) {
    const stat = statSync(file);
    const mode = (stat.mode & 0o777).toString(8).padStart(3, "0");
    throw usageError(
      `cannot open store ${url}: permission denied (this user may not read it; its owner is uid ${stat.uid}, mode ${mode})`,
      error,
      "run as a user who may read the file",
    );
  }
}
