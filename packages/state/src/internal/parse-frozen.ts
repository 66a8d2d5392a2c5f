import { type JsonValue, markDeeplyFrozen, ObeliskError } from "@obelisk/core";
import { freezeNew } from "./copy-json.js";

/** Where a stored JSON text comes from: its table and column, and the thread or run its row belongs to. */
interface StoredRow {
  readonly table: string;
  readonly column: string;
  readonly threadId?: string | undefined;
  readonly runId?: string | undefined;
}

/** `thread "t"`, `run "r"` or both: whom the row belongs to. */
function owner(row: StoredRow): string {
  const parts = [
    ...(row.threadId === undefined ? [] : [`thread ${JSON.stringify(row.threadId)}`]),
    ...(row.runId === undefined ? [] : [`run ${JSON.stringify(row.runId)}`]),
  ];
  return parts.length === 0 ? "a row" : parts.join(", ");
}

/** How to get past a damaged row: restore the file, or delete the thread the row belongs to. */
function damagedRowHint(row: StoredRow): string {
  const remove =
    row.threadId === undefined
      ? "remove the damaged row"
      : `delete ${row.runId === undefined ? "the" : "the run's"} thread (deleteThread / obelisk state delete --thread ${JSON.stringify(row.threadId)})`;
  return `restore the file from a backup, or ${remove}: the store never repairs a damaged row`;
}

/**
 * A stored JSON text that does not parse (a disk error, a hand edit): `STORE_ERROR` with
 * `data: { reason: "corrupt", table, column, threadId?, runId? }`, naming where it is and how to get past it.
 */
function damagedRowError(row: StoredRow, cause: unknown): ObeliskError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new ObeliskError(
    "STORE_ERROR",
    `the store's ${row.table}.${row.column} of ${owner(row)} is damaged: not JSON (${why})`,
    {
      cause,
      hint: damagedRowHint(row),
      data: {
        reason: "corrupt",
        table: row.table,
        column: row.column,
        ...(row.threadId === undefined ? {} : { threadId: row.threadId }),
        ...(row.runId === undefined ? {} : { runId: row.runId }),
      },
    },
  );
}

/**
 * JSON text the store reads back from `row` of its file, parsed and deep-frozen (what it hands out never
 * changes); a text that is not JSON throws {@link damagedRowError}. Frozen by a walk made for what
 * `JSON.parse` returns (plain data, a tree, nothing frozen yet: `freezeNew`), not core's `deepFreeze`, which
 * reads every property's descriptor and keeps a set of what it saw: a 4.4 MB call record (a 50,000-row
 * result) froze in ~26 ms instead of ~400 ms, on every `runs.show` and every record read (stop 42, review q2
 * #7). The value and its members (a record's `result`, `params`) are marked deeply frozen, as `deepFreeze`
 * marked them: a later `deepFreeze` of one returns at once.
 */
export function parseStored<T>(text: string, row: StoredRow): T {
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (error) {
    throw damagedRowError(row, error);
  }
  freezeNew(value);
  if (typeof value === "object" && value !== null)
    for (const member of Object.values(value))
      if (typeof member === "object" && member !== null) markDeeplyFrozen(member);
  return value as T;
}

/** JSON.parse of a text read from `row`, not frozen (a model the store edits); else {@link damagedRowError}. */
export function parseStoredMutable<T>(text: string, row: StoredRow): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw damagedRowError(row, error);
  }
}

/** Whether `error` is {@link damagedRowError} of a row of thread `threadId` (not of one of its runs). */
export function isDamagedThreadRow(error: unknown, threadId: string): boolean {
  if (!ObeliskError.is(error) || error.code !== "STORE_ERROR") return false;
  const data = error.data as { reason?: unknown; threadId?: unknown; runId?: unknown } | undefined;
  return data?.reason === "corrupt" && data.threadId === threadId && data.runId === undefined;
}
