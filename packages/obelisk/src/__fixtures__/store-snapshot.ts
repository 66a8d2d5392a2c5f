import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { asRunId, asThreadId } from "@obelisk/core";
import type { StateStore } from "@obelisk/state";

/** The run id `engine.set` records its writes under (`setValue`'s default). */
const SET_RUN = asRunId("obelisk.set");
/** The run id `engine.unset` records its removals under (`unsetValue`'s default). */
const UNSET_RUN = asRunId("obelisk.unset");

/**
 * Everything a store shows about `threads` through its interface, as JSON text to compare before and after:
 * the store's totals and runs, and per thread its information, next automatic id number, state, write log,
 * variables, stored outputs and call records (its runs', `engine.set`'s and `engine.unset`'s). A thread the store does not
 * hold is `"absent"` and nothing more is asked about it (asking would create it).
 */
export async function storeSnapshot(store: StateStore, threads: readonly string[]): Promise<string> {
  const snapshot: Record<string, unknown> = {
    stats: await store.stats(),
    runs: await store.listRuns(),
    setRecords: await store.listCallRecords(SET_RUN),
    unsetRecords: await store.listCallRecords(UNSET_RUN),
  };
  for (const name of threads) {
    const threadId = asThreadId(name);
    const info = await store.getThread(threadId);
    if (info === undefined) {
      snapshot[name] = "absent";
      continue;
    }
    const runs = await store.listRuns({ threadId });
    const outputIds = await store.listCallOutputIds(threadId);
    snapshot[name] = {
      info,
      nextCallNumber: await store.nextCallNumber?.(threadId),
      state: await store.readState(threadId),
      log: await store.readWriteLog(threadId),
      variables: await store.listVariables(threadId),
      outputs: await Promise.all(outputIds.map((id) => store.getCallOutput(threadId, id))),
      records: await Promise.all(runs.map((run) => store.listCallRecords(run.runId))),
      stats: await store.stats(threadId),
    };
  }
  return JSON.stringify(snapshot);
}

interface Row {
  readonly [column: string]: unknown;
}
interface ReadonlyDatabase {
  prepare(sql: string): { all(): Row[] };
  close(): void;
}

/** better-sqlite3, loaded from @obelisk/state's own dependencies (this package does not depend on it). */
const Database = createRequire(fileURLToPath(new URL("../../../state/package.json", import.meta.url)))(
  "better-sqlite3",
) as new (
  file: string,
  options: { readonly: boolean },
) => ReadonlyDatabase;

/**
 * Every row of every table of a SQLite store file (the thread counters, versions, snapshots and locks the
 * interface does not show included), read through a read-only connection of its own, as JSON text.
 */
export function sqliteTables(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((row) => String(row.name));
    const dump: Record<string, string[]> = {};
    for (const table of tables) {
      const rows = db.prepare(`SELECT * FROM "${table}"`).all();
      dump[table] = rows.map((row) => JSON.stringify(row)).sort();
    }
    return JSON.stringify(dump);
  } finally {
    db.close();
  }
}
