import { ObeliskError } from "@obelisk/core";
import type { SqliteStoreOptions } from "../sqlite-store-options.js";
import { checkBound } from "./store-history.js";

/**
 * The numeric options of a store, checked before anything is opened or created (a refused option must
 * leave no file behind): the retention fields are numbers >= 0 (Infinity: no bound), the history bounds
 * and SQLite's `cachedThreads` whole numbers >= 0 or Infinity, `busyTimeoutMs` a whole number >= 0.
 * Throws ObeliskError USAGE naming the option.
 */
export function checkStoreOptions(options: SqliteStoreOptions): void {
  const retention: unknown = options.retention;
  if (retention !== undefined) {
    if (typeof retention !== "object" || retention === null || Array.isArray(retention))
      throw new ObeliskError("USAGE", "retention must be an object of bounds");
    for (const [name, value] of Object.entries(retention))
      if (value !== undefined && (typeof value !== "number" || Number.isNaN(value) || value < 0))
        throw new ObeliskError(
          "USAGE",
          `retention ${name} must be a number >= 0 (Infinity: no bound), not ${String(value)}`,
          { data: { [name]: String(value) } },
        );
  }
  for (const name of ["recordResultBytes", "recordParamsBytes", "maxTombstones", "cachedThreads"] as const)
    checkBound(name, options[name], 0);
  const busy: unknown = options.busyTimeoutMs;
  if (busy !== undefined && !(Number.isSafeInteger(busy) && (busy as number) >= 0))
    throw new ObeliskError("USAGE", `busyTimeoutMs must be a whole number >= 0, not ${String(busy)}`, {
      data: { busyTimeoutMs: String(busy) },
    });
}
