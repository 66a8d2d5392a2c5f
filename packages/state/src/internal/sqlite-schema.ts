import type { Database, Statement } from "better-sqlite3";
import { findSchemaClash } from "./sqlite-schema-clash.js";
import { LATER_TABLES, RESUME_OF, RETIRED_INDEXES, SCHEMA_INDEXES, SCHEMA_TABLES } from "./sqlite-tables.js";

/** Schema version stored in `meta`; bump with a migration when tables change. */
export const SQLITE_SCHEMA_VERSION = 2;

/** The whole schema as SQL, one statement per table and index (see {@link SCHEMA_TABLES}), retired indexes dropped. */
const SQLITE_SCHEMA = [
  ...[...SCHEMA_TABLES, ...SCHEMA_INDEXES].map((object) => `${object.definition};`),
  ...RETIRED_INDEXES.map((name) => `DROP INDEX IF EXISTS ${name};`),
].join("\n");

/**
 * The `meta` key of the version a thread's row starts at when created (0 without the row): `deleteThread`
 * raises it above the deleted row's version, so a thread created again under the same id never reaches a
 * version (with `next_seq`) that a model cached by another connection before the deletion holds. A row
 * of `meta`, not a column: no new schema version, and builds of this one ignore it (decision 0098).
 */
const THREAD_VERSION_FLOOR = "thread_version_floor";

/** The run listings' rows, newest first below a cursor (`seq < ?`: the largest integer for no cursor). */
const RUNS_ALL = "FROM runs WHERE seq < ? ORDER BY seq DESC LIMIT ?";
const RUNS_OF_THREAD = "FROM runs WHERE thread_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?";
const RUNS_BY_STATUS = "FROM runs WHERE (status = ? OR status = ?) AND seq < ? ORDER BY seq DESC LIMIT ?";
const RUNS_OF_THREAD_BY_STATUS =
  "FROM runs WHERE +thread_id = ? AND (status = ? OR status = ?) AND seq < ? ORDER BY seq DESC LIMIT ?";
/**
 * A run row without its plan and input, and its call count: the plan document's call list (or a bare
 * list), and a running run's calls appended so far (`run_calls`) — decision 0104.
 */
const SUMMARY =
  "run_id, thread_id, json_remove(record, '$.plan', '$.input') AS record, coalesce(json_array_length(record, '$.plan.plan'), json_array_length(record, '$.plan'), 0) + CASE WHEN status = 'running' THEN (SELECT count(*) FROM run_calls WHERE run_calls.run_id = runs.run_id) ELSE 0 END AS calls";

const STATEMENTS = {
  threadGet:
    "SELECT t.state_schema, t.created_at, t.next_seq, coalesce(s.snapshot, t.snapshot) AS snapshot, coalesce(s.snapshot_seq, t.snapshot_seq) AS snapshot_seq, s.snapshot IS NOT NULL AS snapshot_apart, t.version FROM threads t LEFT JOIN snapshots s ON s.thread_id = t.thread_id WHERE t.thread_id = ?",
  /**
   * A new thread's row, its version starting at the file's floor (see {@link THREAD_VERSION_FLOOR}): no row
   * answered = the thread was there already.
   */
  threadInsert: `INSERT OR IGNORE INTO threads (thread_id, state_schema, created_at, version) VALUES (?, ?, ?, coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = '${THREAD_VERSION_FLOOR}'), 0)) RETURNING version`,
  /** `deleteThread`: the floor raised above the deleted row's version (before the row goes), never lowered. */
  threadVersionFloorRaise: `INSERT INTO meta (key, value) SELECT '${THREAD_VERSION_FLOOR}', version + 1 FROM threads WHERE thread_id = ? ON CONFLICT (key) DO UPDATE SET value = max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))`,
  /** A schema change is a change of the thread: it bumps the version (no-op when the schema is the same). */
  threadSchema:
    "UPDATE threads SET state_schema = ?, version = version + 1 WHERE thread_id = ? AND state_schema IS NOT ? RETURNING next_seq, version",
  threadSeq: "SELECT next_seq, version FROM threads WHERE thread_id = ?",
  /** `getThread` of a thread without a cached model: its row's small columns, not its state. */
  threadInfo: "SELECT thread_id, state_schema, created_at FROM threads WHERE thread_id = ?",
  /** The staleness check and the advance in one statement: no row changed = another writer moved the thread. */
  threadAdvance:
    "UPDATE threads SET next_seq = ?, version = ? WHERE thread_id = ? AND next_seq = ? AND version = ?",
  snapshotPut: "INSERT OR REPLACE INTO snapshots (thread_id, snapshot, snapshot_seq) VALUES (?, ?, ?)",
  /** Only while the row is where the model is (`next_seq` and `version`: a thread deleted and created again may reach the same `next_seq`). */
  snapshotPutIfCurrent:
    "INSERT OR REPLACE INTO snapshots (thread_id, snapshot, snapshot_seq) SELECT thread_id, ?, next_seq FROM threads WHERE thread_id = ? AND next_seq = ? AND version = ?",
  /** Files written before `snapshots` existed kept the snapshot in the threads row: empty it once. */
  threadSnapshotClear:
    "UPDATE threads SET snapshot = '{}', snapshot_seq = 1 WHERE thread_id = ? AND (snapshot <> '{}' OR snapshot_seq <> 1)",
  threadCounter:
    "UPDATE threads SET call_counter = call_counter + ? WHERE thread_id = ? RETURNING call_counter",
  threadCounterRead: "SELECT call_counter FROM threads WHERE thread_id = ?",
  /** A call number taken by a commit (checked against the counter in the commit's transaction). */
  threadCounterSet: "UPDATE threads SET call_counter = ? WHERE thread_id = ?",
  /** A schema given by a commit, whose own version step covers it. */
  threadSchemaSet: "UPDATE threads SET state_schema = ? WHERE thread_id = ?",
  logInsert: "INSERT INTO write_log (thread_id, seq, op, entry) VALUES (?, ?, ?, ?)",
  logSince: "SELECT op, entry FROM write_log WHERE thread_id = ? AND seq >= ? ORDER BY seq",
  logAll: "SELECT entry FROM write_log WHERE thread_id = ? ORDER BY seq",
  logClear: "DELETE FROM write_log WHERE thread_id = ?",
  varUpsert:
    "INSERT OR REPLACE INTO variables (thread_id, reference, scope, path, touch, updated_ms, bytes, meta) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  varDelete: "DELETE FROM variables WHERE thread_id = ? AND reference = ?",
  varClear: "DELETE FROM variables WHERE thread_id = ?",
  varLoad:
    "SELECT path, touch, updated_ms, meta FROM variables WHERE thread_id = ? ORDER BY touch, length(path) DESC",
  outputUpsert: "INSERT OR REPLACE INTO call_outputs (thread_id, call_id, value) VALUES (?, ?, ?)",
  outputGet: "SELECT value FROM call_outputs WHERE thread_id = ? AND call_id = ?",
  outputDelete: "DELETE FROM call_outputs WHERE thread_id = ? AND call_id = ?",
  outputClear: "DELETE FROM call_outputs WHERE thread_id = ?",
  /** reset: the records stay (run history) but no longer make a call satisfied. */
  recordsForget: "UPDATE call_records SET call_hash = NULL WHERE thread_id = ? AND call_hash IS NOT NULL",
  tombstoneUpsert:
    "INSERT OR REPLACE INTO tombstones (thread_id, reference, evicted_at, reason) VALUES (?, ?, ?, ?)",
  tombstoneDelete: "DELETE FROM tombstones WHERE thread_id = ? AND reference = ?",
  // state tombstones only (call-output ones are always cleared by reference): a range of the primary key
  tombstoneAny:
    "SELECT 1 FROM tombstones WHERE thread_id = ? AND reference >= '†state' AND reference < '†statf' LIMIT 1",
  /**
   * The references below a parent's: two ranges of the primary key (those continuing it with `.`, then
   * with `[`), each searched in the index (an OR of the two would scan every tombstone of the thread).
   */
  tombstonesBelow:
    "SELECT reference FROM tombstones WHERE thread_id = ? AND reference > ? AND reference < ? UNION ALL SELECT reference FROM tombstones WHERE thread_id = ? AND reference > ? AND reference < ?",
  tombstoneGet: "SELECT reference, evicted_at, reason FROM tombstones WHERE thread_id = ? AND reference = ?",
  /** `maxTombstones` (decision 0034): a thread's tombstones counted, its oldest evictions' dropped. */
  tombstoneCount: "SELECT count(*) AS n FROM tombstones WHERE thread_id = ?",
  tombstonesDropOldest:
    "DELETE FROM tombstones WHERE thread_id = ? AND reference IN (SELECT reference FROM tombstones WHERE thread_id = ? ORDER BY evicted_at, reference LIMIT ?)",
  recordInsert:
    "INSERT INTO call_records (thread_id, run_id, call_id, status, call_hash, record) VALUES (?, ?, ?, ?, ?, ?)",
  recordsOfRun: "SELECT thread_id, record FROM call_records WHERE run_id = ? ORDER BY id",
  recordsCompleted:
    "SELECT record FROM call_records WHERE thread_id = ? AND call_hash = ? AND status = 'succeeded' ORDER BY id DESC LIMIT ?",
  recordCompleted:
    "SELECT record FROM call_records WHERE thread_id = ? AND call_hash = ? AND status = 'succeeded' ORDER BY id DESC LIMIT 1",
  runInsert: "INSERT INTO runs (run_id, thread_id, status, record) VALUES (?, ?, ?, ?)",
  runGet: "SELECT run_id, thread_id, record FROM runs WHERE run_id = ?",
  runUpdate: "UPDATE runs SET status = ?, record = ? WHERE run_id = ?",
  runCallAppend: "INSERT INTO run_calls (run_id, seq, call) VALUES (?, ?, ?)",
  runCallsOf: "SELECT call FROM run_calls WHERE run_id = ? ORDER BY seq",
  runCallsNext: "SELECT coalesce(max(seq), 0) + 1 AS next FROM run_calls WHERE run_id = ?",
  runCallsDelete: "DELETE FROM run_calls WHERE run_id = ?",
  /** Runs newest first, those recorded before a cursor (`seq < ?`: the largest integer for no cursor). */
  runsAll: `SELECT run_id, thread_id, record ${RUNS_ALL}`,
  runsOfThread: `SELECT run_id, thread_id, record ${RUNS_OF_THREAD}`,
  /** Runs of one or two statuses (`runs_status`; the thread's index is not used for them: `+thread_id`). */
  runsByStatus: `SELECT run_id, thread_id, record ${RUNS_BY_STATUS}`,
  runsOfThreadByStatus: `SELECT run_id, thread_id, record ${RUNS_OF_THREAD_BY_STATUS}`,
  /** The same runs without plans and inputs, with their call counts (`listRunSummaries`, decision 0104). */
  summariesAll: `SELECT ${SUMMARY} ${RUNS_ALL}`,
  summariesOfThread: `SELECT ${SUMMARY} ${RUNS_OF_THREAD}`,
  summariesByStatus: `SELECT ${SUMMARY} ${RUNS_BY_STATUS}`,
  summariesOfThreadByStatus: `SELECT ${SUMMARY} ${RUNS_OF_THREAD_BY_STATUS}`,
  /**
   * `listWaitingRuns`: the runs with a `waiting` call record, found in `call_records_waiting` (few rows);
   * `@thread` and `@first` null select every thread and status (one or two statuses, as above).
   */
  runsWaiting:
    "SELECT run_id, thread_id, record FROM runs WHERE run_id IN (SELECT run_id FROM call_records WHERE status = 'waiting') AND (@thread IS NULL OR thread_id = @thread) AND (@first IS NULL OR status = @first OR status = @second) AND seq < @before ORDER BY seq DESC LIMIT @limit",
  /** A `before` cursor's place (`seq`) and thread. */
  runPlace: "SELECT seq, thread_id FROM runs WHERE run_id = ?",
  /** The newest run recorded with a `resumeOf` (`StateStore.resumedBy`), found in `runs_resume_of`. */
  runResumedBy: `SELECT run_id, thread_id, record FROM runs WHERE ${RESUME_OF} = ? ORDER BY seq DESC LIMIT 1`,
  /** What a lock or a read marks `interrupted`: found in `runs_status`, not among all the thread's runs. */
  runsRunningOfThread:
    "SELECT run_id, thread_id, record FROM runs WHERE status = 'running' AND +thread_id = ? ORDER BY seq",
  statsVars: "SELECT scope, count(*) AS n, coalesce(sum(bytes), 0) AS bytes FROM variables GROUP BY scope",
  statsVarsThread:
    "SELECT scope, count(*) AS n, coalesce(sum(bytes), 0) AS bytes FROM variables WHERE thread_id = ? GROUP BY scope",
  statsThreads: "SELECT count(*) AS n FROM threads",
  /** `listThreads`: every thread's row (the order is made in code, as the memory store makes it). */
  threadList: "SELECT thread_id, state_schema, created_at FROM threads",
  /**
   * `listIdleThreads`: the rows of the threads whose last activity is before `@since` (an ISO time): the newest
   * run's `endedAt` (`~`, after every time, while it has none or is damaged), or without a run the thread's
   * creation — and every thread whose newest run is `running` or `interrupted`, with that run's id and start
   * (`open_run`, `open_status`, `open_started`), for the store to tell (lock, last call record). One seek per
   * thread for its newest run in `runs_thread` (thread_id, seq), then that row by `seq`; never other runs.
   */
  threadListIdle: `SELECT t.thread_id, t.state_schema, t.created_at, CASE WHEN r.status IN ('running', 'interrupted') THEN r.run_id END AS open_run, r.status AS open_status, CASE WHEN json_valid(r.record) THEN json_extract(r.record, '$.startedAt') END AS open_started FROM threads AS t LEFT JOIN runs AS r ON r.seq = (SELECT max(seq) FROM runs WHERE runs.thread_id = t.thread_id) WHERE CASE WHEN r.seq IS NULL THEN t.created_at < @since WHEN r.status IN ('running', 'interrupted') THEN 1 ELSE (CASE WHEN json_valid(r.record) THEN coalesce(json_extract(r.record, '$.endedAt'), '~') ELSE '~' END) < @since END`,
  /** A run's last committed call record's times (`listIdleThreads`), found in `call_records_run`. */
  runLastRecordTimes: `SELECT CASE WHEN json_valid(record) THEN json_extract(record, '$.startedAt') END AS started_at, CASE WHEN json_valid(record) THEN json_extract(record, '$.endedAt') END AS ended_at FROM call_records WHERE run_id = ? ORDER BY id DESC LIMIT 1`,
  statsRuns: "SELECT count(*) AS n FROM runs",
  statsRunsThread: "SELECT count(*) AS n FROM runs WHERE thread_id = ?",
  /** Bounded history (decision 0029): a compacted log entry, a record stripped of its result. */
  logDeleteRange: "DELETE FROM write_log WHERE thread_id = ? AND seq >= ? AND seq <= ?",
  logUpdate: "UPDATE write_log SET entry = ? WHERE thread_id = ? AND seq = ?",
  recordCallsOfRun: "SELECT id, call_id, call_hash FROM call_records WHERE run_id = ? AND thread_id = ?",
  /** The same for a host edit's run id, by its partial index (see {@link recordCallsOf}). */
  recordCallsOfSet:
    "SELECT id, call_id, call_hash FROM call_records WHERE thread_id = ? AND run_id = 'obelisk.set'",
  recordCallsOfUnset:
    "SELECT id, call_id, call_hash FROM call_records WHERE thread_id = ? AND run_id = 'obelisk.unset'",
  recordById: "SELECT record FROM call_records WHERE id = ?",
  /**
   * A record stripped: deleted, then inserted again with its id (see `SqliteCompaction.stripCalls`), never
   * updated in place, which left its table's pages mostly empty and the file growing by ~8 KB per tick.
   */
  recordStripTake: "DELETE FROM call_records WHERE id = ? RETURNING thread_id, run_id, call_id, status",
  recordStripPut:
    "INSERT INTO call_records (id, thread_id, run_id, call_id, status, call_hash, record) VALUES (?, ?, ?, ?, ?, NULL, ?)",
  varCallOutputs: "SELECT meta, path FROM variables WHERE thread_id = ? AND scope = 'calls'",
  /** `pruneRuns` and `deleteThread`. */
  runDelete: "DELETE FROM runs WHERE run_id = ?",
  recordDelete: "DELETE FROM call_records WHERE id = ?",
  /** Host edits' records (decision 0034): the threads with some, by the run-id index (two shared ids). */
  editThreads: "SELECT DISTINCT thread_id FROM call_records WHERE run_id IN (?, ?)",
  editThreadHas: "SELECT 1 FROM call_records WHERE run_id IN (?, ?) AND thread_id = ? LIMIT 1",
  /** Pruned runs whose records pruning kept (decision 0034, Amended): by thread, on the primary key. */
  prunedRunPut: "INSERT OR IGNORE INTO pruned_runs (thread_id, run_id) VALUES (?, ?)",
  prunedRunsOf: "SELECT run_id FROM pruned_runs WHERE thread_id = ?",
  prunedRunDelete: "DELETE FROM pruned_runs WHERE thread_id = ? AND run_id = ?",
  prunedThreads: "SELECT DISTINCT thread_id FROM pruned_runs",
  prunedThreadHas: "SELECT 1 FROM pruned_runs WHERE thread_id = ? LIMIT 1",
  threadPrunedDelete: "DELETE FROM pruned_runs WHERE thread_id = ?",
  threadRunCallsDelete: "DELETE FROM run_calls WHERE run_id IN (SELECT run_id FROM runs WHERE thread_id = ?)",
  threadRunsDelete: "DELETE FROM runs WHERE thread_id = ?",
  threadRecordsDelete: "DELETE FROM call_records WHERE thread_id = ?",
  threadTombstonesDelete: "DELETE FROM tombstones WHERE thread_id = ?",
  threadSnapshotDelete: "DELETE FROM snapshots WHERE thread_id = ?",
  threadDelete: "DELETE FROM threads WHERE thread_id = ?",
  lockGet: "SELECT owner, host, pid, heartbeat_ms FROM locks WHERE thread_id = ?",
  lockPut: "INSERT OR REPLACE INTO locks (thread_id, owner, host, pid, heartbeat_ms) VALUES (?, ?, ?, ?, ?)",
  lockBeat: "UPDATE locks SET heartbeat_ms = ? WHERE thread_id = ? AND owner = ?",
  lockDelete: "DELETE FROM locks WHERE thread_id = ? AND owner = ?",
  lockOwned: "SELECT 1 FROM locks WHERE thread_id = ? AND owner = ?",
  /** Every lock row, for `vacuum`'s check that no run holds any thread. */
  lockAll: "SELECT thread_id, owner, host, pid, heartbeat_ms FROM locks ORDER BY thread_id",
} as const;

/** The prepared statements of a store, by name (prepared once per connection). */
export type SqliteStatements = { readonly [K in keyof typeof STATEMENTS]: Statement };

/**
 * The ids and call ids of a thread's records of one run: a host edit's run id (`obelisk.set`,
 * `obelisk.unset`, shared by every thread) through its partial index, any other through `(run_id, id)`.
 */
export function recordCallsOf(
  sql: SqliteStatements,
  runId: string,
  threadId: string,
): { id: number; call_id: string; call_hash: string | null }[] {
  const rows =
    runId === "obelisk.set"
      ? sql.recordCallsOfSet.all(threadId)
      : runId === "obelisk.unset"
        ? sql.recordCallsOfUnset.all(threadId)
        : sql.recordCallsOfRun.all(runId, threadId);
  return rows as { id: number; call_id: string; call_hash: string | null }[];
}

/** True when the file's `threads` table has the `version` column of schema version 2. */
function hasThreadVersions(db: Database): boolean {
  return (db.prepare("PRAGMA main.table_info(threads)").all() as { name: string }[]).some(
    (column) => column.name === "version",
  );
}

/**
 * Brings a file written by schema version 1 up to date: adds `threads.version` (0 for every thread; the
 * first change makes it 1). Runs inside {@link ensureSchema}'s IMMEDIATE transaction, so two processes
 * opening the same old file do not both add the column. Older readers ignore the column; their writes still
 * advance `next_seq`, which every check compares as well.
 */
function migrate(db: Database): void {
  if (hasThreadVersions(db)) return;
  db.exec("ALTER TABLE threads ADD COLUMN version INTEGER NOT NULL DEFAULT 0");
  db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version' AND CAST(value AS INTEGER) < ?").run(
    String(SQLITE_SCHEMA_VERSION),
    SQLITE_SCHEMA_VERSION,
  );
}

/** The store's tables that every store has, of every schema version (see {@link LATER_TABLES}). */
const FIRST_TABLES = SCHEMA_TABLES.filter((table) => !LATER_TABLES.includes(table.name)).map(
  (table) => table.name,
);

/** The whole number from 1 in `db`'s `meta` `schema_version` row, or undefined (no such table or row). */
export function schemaVersion(db: Database): number | undefined {
  let row: { value?: unknown } | undefined;
  try {
    row = db.prepare("SELECT value FROM main.meta WHERE key = 'schema_version'").get() as typeof row;
  } catch {
    return undefined; // no `meta` table, or one of another shape
  }
  return row !== undefined && /^[1-9][0-9]*$/.test(String(row.value)) ? Number(row.value) : undefined;
}

/**
 * What a file holds, read without writing: `store` (an Obelisk store of this schema version), `older` (one
 * that needs {@link ensureSchema} to bring it up to date), `empty` (no table, view, index or trigger: an
 * empty or new file) or `foreign` (another program's database). A store, of this version or an older one,
 * has all of these — a `meta` row alone does not make a store:
 * - a `meta` table whose `schema_version` row holds a whole number (written in the transaction that
 *   creates every table);
 * - every store table of schema version 1 (all but {@link LATER_TABLES});
 * - no object that clashes with the store's ({@link findSchemaClash}): every table of a store table's name
 *   has exactly that table's columns, where an older store may lack the migrated ones (`threads.version`).
 * It is `store` when `threads` has the `version` column of schema version 2, `older` when not.
 */
export function storeFileKind(db: Database): "store" | "older" | "newer" | "empty" | "foreign" {
  const objects = db.prepare("SELECT type, name FROM main.sqlite_master").all() as {
    type: string;
    name: string;
  }[];
  if (objects.length === 0) return "empty";
  const tables = new Set(objects.filter((row) => row.type === "table").map((row) => row.name.toLowerCase()));
  const version = tables.has("meta") ? schemaVersion(db) : undefined;
  if (version === undefined) return "foreign";
  // A later schema may have added, changed or dropped tables: its version decides before their shapes do.
  if (version > SQLITE_SCHEMA_VERSION && tables.has("threads") && tables.has("runs")) return "newer";
  if (FIRST_TABLES.some((name) => !tables.has(name))) return "foreign";
  if (findSchemaClash(db) !== undefined) return "foreign";
  return hasThreadVersions(db) ? "store" : "older";
}

/**
 * Read-only: gives a store written by an older build the tables added since without a schema version
 * (`run_calls`, stop 18) as empty TEMP tables, so its statements prepare and read "nothing" there instead
 * of failing with "no such table". Writes nothing to the file: a temporary table lives in the connection.
 */
export function addMissingTablesAsTemp(db: Database): void {
  const missing = missingTables(db);
  if (missing.length === 0) return;
  // query_only forbids even a TEMP table: lifted for these statements only
  const queryOnly = Number(db.pragma("query_only", { simple: true })) === 1;
  if (queryOnly) db.pragma("query_only = OFF");
  try {
    for (const table of missing)
      db.exec(table.definition.replace("CREATE TABLE IF NOT EXISTS", "CREATE TEMP TABLE IF NOT EXISTS"));
  } finally {
    if (queryOnly) db.pragma("query_only = ON");
  }
}

/** Prepares every statement of the store (the tables must exist). */
export function prepareStatements(db: Database): SqliteStatements {
  const prepared: Record<string, Statement> = {};
  for (const [name, sql] of Object.entries(STATEMENTS)) prepared[name] = db.prepare(sql);
  return prepared as SqliteStatements;
}

/** The store's tables `db`'s file lacks. */
function missingTables(db: Database): typeof SCHEMA_TABLES {
  const present = new Set(
    (db.prepare("SELECT name FROM main.sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
      (row) => row.name.toLowerCase(),
    ),
  );
  return SCHEMA_TABLES.filter((table) => !present.has(table.name));
}

/**
 * True when `db`'s file has every table and index of the store and none of its retired indexes. Indexes
 * added since a file was written (`runs_status`) are created by the next writable open, with the tables it
 * lacks, and retired ones dropped; a read-only store works without them (its queries scan).
 */
function lacksNothing(db: Database): boolean {
  if (missingTables(db).length > 0) return false;
  const present = new Set(
    (db.prepare("SELECT name FROM main.sqlite_master WHERE type = 'index'").all() as { name: string }[]).map(
      (row) => row.name.toLowerCase(),
    ),
  );
  return (
    SCHEMA_INDEXES.every((index) => present.has(index.name)) &&
    !RETIRED_INDEXES.some((name) => present.has(name))
  );
}

/** What a file holds, as {@link storeFileKind} tells it. */
export type StoreFileKind = ReturnType<typeof storeFileKind>;

/**
 * Makes `db`'s file hold a complete store of this schema version, all at once or not at all: the tables and
 * indexes it lacks, the schema version row and the migration of an older store are written in one
 * IMMEDIATE transaction, after `admit` has seen what the file holds (it throws to refuse the file: nothing
 * was written; it is asked before the transaction too, so a refusal needs no write lock). Before it
 * commits, the transaction checks that the file now is a complete store of this version (by
 * {@link storeFileKind}, so also that no table clashes with the store's): if not, it throws and rolls
 * everything back. A store that lacks nothing is only read (no write lock is taken). The journal mode is
 * not changed here (SQLite cannot change it inside a transaction): the caller switches to WAL afterwards.
 */
export function ensureSchema(db: Database, admit: (kind: StoreFileKind) => void): void {
  const kind = storeFileKind(db);
  if (kind === "store" && lacksNothing(db)) return;
  admit(kind); // a refusal first without the write lock (another program may hold it), then again inside
  db.transaction(() => {
    const kind = storeFileKind(db);
    admit(kind);
    if (kind === "store" && lacksNothing(db)) return;
    db.exec(SQLITE_SCHEMA);
    db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)").run(
      String(SQLITE_SCHEMA_VERSION),
    );
    migrate(db);
    const missing = missingTables(db);
    const now = storeFileKind(db);
    if (now !== "store" || missing.length > 0) {
      throw new Error(
        `the file is not a complete store after creating its schema (${now}${missing.length > 0 ? `, lacking ${missing.map((table) => table.name).join(", ")}` : ""}): nothing was changed`,
      );
    }
  }).immediate();
}
