import { createKindTable, type KindTable, ObeliskError } from "@obelisk/core";
import type { EngineOptions } from "./engine-types.js";

/**
 * The engine's kind table: host kinds are read-only data supplied per run (`RunOptions.context`); only
 * `†state` is written, and only by the engine, so a writable or engine-managed host kind is refused (USAGE)
 * instead of accepting writes that would be dropped.
 */
export function engineKinds(extra: EngineOptions["kinds"]): KindTable {
  const table = createKindTable(extra ?? []);
  for (const info of extra ?? []) {
    if (info.writable || info.engineManaged) {
      const what = info.writable ? "writable" : "engine-managed";
      throw new ObeliskError(
        "USAGE",
        `kind "${info.kind}" cannot be ${what}: host kinds are read-only context`,
      );
    }
  }
  return table;
}
