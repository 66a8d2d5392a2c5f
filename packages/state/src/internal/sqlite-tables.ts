/** A table or index of the store's SQLite schema: its name and its one `CREATE … IF NOT EXISTS` statement. */
export interface SchemaObject {
  readonly name: string;
  /** The table an index is on (for a table, itself). */
  readonly table: string;
  /** One statement, without the closing `;`. */
  readonly definition: string;
}

const table = (name: string, body: string, suffix = ""): SchemaObject => ({
  name,
  table: name,
  definition: `CREATE TABLE IF NOT EXISTS ${name} (${body})${suffix}`,
});
const index = (name: string, on: string, rest: string): SchemaObject => ({
  name,
  table: on,
  definition: `CREATE INDEX IF NOT EXISTS ${name} ON ${on} ${rest}`,
});

/**
 * The tables of the SQLite schema (documented in the package README), one statement each: listed as data,
 * so no code splits SQL text into statements. `call_records.id` is the rowid without AUTOINCREMENT: rows
 * are never deleted, so ids still only go up, and a commit does not also write `sqlite_sequence` (one page
 * fewer in the WAL per call). Files created with AUTOINCREMENT work unchanged. Snapshots of the folded
 * state live in `snapshots`, not in the `threads` row every commit updates (`next_seq`): SQLite rewrites a
 * whole row on update, reading a large snapshot's overflow pages each time. `threads.snapshot` /
 * `snapshot_seq` remain for files written before: read when `snapshots` has no row, emptied (`'{}'`, from
 * seq 1: the write log is complete since the last reset) when a snapshot is saved. `threads.version`
 * (schema version 2) counts the persisted changes of a thread (every commit, eviction, reset and schema
 * change): a cached model whose version and `next_seq` match the row is current. It never restarts under
 * one id: a new row starts at `meta`'s `thread_version_floor`, which `deleteThread` raises above the
 * deleted row's version (decision 0098; a `meta` row, so no new schema version).
 */
export const SCHEMA_TABLES: readonly SchemaObject[] = [
  table("meta", "key TEXT PRIMARY KEY, value TEXT NOT NULL"),
  table(
    "threads",
    `thread_id TEXT PRIMARY KEY, state_schema TEXT, created_at TEXT NOT NULL,
  next_seq INTEGER NOT NULL DEFAULT 1, call_counter INTEGER NOT NULL DEFAULT 0,
  snapshot TEXT NOT NULL DEFAULT '{}', snapshot_seq INTEGER NOT NULL DEFAULT 1,
  version INTEGER NOT NULL DEFAULT 0`,
  ),
  table("snapshots", "thread_id TEXT PRIMARY KEY, snapshot TEXT NOT NULL, snapshot_seq INTEGER NOT NULL"),
  table(
    "runs",
    `seq INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL UNIQUE, thread_id TEXT NOT NULL,
  status TEXT NOT NULL, record TEXT NOT NULL`,
  ),
  table(
    "call_records",
    `id INTEGER PRIMARY KEY, thread_id TEXT NOT NULL, run_id TEXT NOT NULL, call_id TEXT NOT NULL,
  status TEXT NOT NULL, call_hash TEXT, record TEXT NOT NULL`,
  ),
  table(
    "write_log",
    "thread_id TEXT NOT NULL, seq INTEGER NOT NULL, op TEXT, entry TEXT NOT NULL, PRIMARY KEY (thread_id, seq)",
    " WITHOUT ROWID",
  ),
  table(
    "variables",
    `thread_id TEXT NOT NULL, reference TEXT NOT NULL, scope TEXT NOT NULL, path TEXT NOT NULL,
  touch INTEGER NOT NULL, updated_ms INTEGER NOT NULL, bytes INTEGER NOT NULL, meta TEXT NOT NULL,
  PRIMARY KEY (thread_id, reference)`,
    " WITHOUT ROWID",
  ),
  table(
    "call_outputs",
    "thread_id TEXT NOT NULL, call_id TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (thread_id, call_id)",
    " WITHOUT ROWID",
  ),
  table(
    "tombstones",
    `thread_id TEXT NOT NULL, reference TEXT NOT NULL, evicted_at TEXT NOT NULL, reason TEXT NOT NULL,
  PRIMARY KEY (thread_id, reference)`,
    " WITHOUT ROWID",
  ),
  table(
    "locks",
    "thread_id TEXT PRIMARY KEY, owner TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL, heartbeat_ms INTEGER NOT NULL",
  ),
  table(
    "run_calls",
    "run_id TEXT NOT NULL, seq INTEGER NOT NULL, call TEXT NOT NULL, PRIMARY KEY (run_id, seq)",
    " WITHOUT ROWID",
  ),
  // the pruned runs of a thread some of whose call records `pruneRuns` kept (a value they wrote was still
  // held): the next prune of the thread removes those that hold nothing any more (decision 0034, Amended)
  table(
    "pruned_runs",
    "thread_id TEXT NOT NULL, run_id TEXT NOT NULL, PRIMARY KEY (thread_id, run_id)",
    " WITHOUT ROWID",
  ),
];

/** Indexes of earlier versions of the schema: the next writable open drops them (a later index does their work). */
export const RETIRED_INDEXES: readonly string[] = ["call_records_hash"];

/**
 * A run record's `resumeOf`, as the index `runs_resume_of` and the query that uses it say it (word for word,
 * or SQLite does not use the index). A record that is not JSON (a damaged row) has none: `json_extract`
 * alone would refuse every write of such a row, and the creation of the index on a file that holds one.
 */
export const RESUME_OF = "(CASE WHEN json_valid(record) THEN json_extract(record, '$.resumeOf') END)";

/** The indexes of the SQLite schema. */
export const SCHEMA_INDEXES: readonly SchemaObject[] = [
  index("runs_thread", "runs", "(thread_id, seq)"),
  // the runs still `running` (or `interrupted`) without reading every run: added without a schema version
  index("runs_status", "runs", "(status, seq)"),
  // the resume of a run (`resumedBy`: `resume` refuses a run resumed already, decision 0070) without reading
  // the thread's every run: on the record's `resumeOf`, so the runs any build records are in it, and
  // partial, so only resumes pay for it. Added without a schema version, as runs_status.
  index("runs_resume_of", "runs", `(${RESUME_OF}) WHERE ${RESUME_OF} IS NOT NULL`),
  index("call_records_run", "call_records", "(run_id, id)"),
  // a call's key (`call_hash`): the satisfied lookup (`findCompletedCall(s)`, the latest `succeeded` record of
  // a key) seeks its status too. Without `status` in it (`call_records_hash`, retired below) the lookup read
  // every record of the key newest first until one had succeeded, and a call re-sent every tick leaves a
  // `satisfied` record each time: the thousandth tick read a thousand. One index, so a commit writes no
  // more index entries than before.
  index("call_records_key", "call_records", "(thread_id, call_hash, status, id) WHERE call_hash IS NOT NULL"),
  // a thread's host edits (decision 0034): their run ids are shared by every thread, so `call_records_run`
  // reads every thread's to find one's (a prune of 4,000 threads took 20 s); partial, so no other record
  // pays for them. Added without a schema version, as runs_status.
  index("call_records_set", "call_records", "(thread_id, id) WHERE run_id = 'obelisk.set'"),
  index("call_records_unset", "call_records", "(thread_id, id) WHERE run_id = 'obelisk.unset'"),
  // the runs waiting for approval (`listWaitingRuns`) without reading every run's records; partial: only
  // `waiting` records pay for it. Added without a schema version, as runs_status.
  index("call_records_waiting", "call_records", "(run_id) WHERE status = 'waiting'"),
];

/**
 * Columns a store of an older schema version may lack, by table: added by the migration that brings it up
 * to date (a half-created file of such a version is not another program's table).
 */
export const MIGRATED_COLUMNS: Readonly<Record<string, readonly string[]>> = { threads: ["version"] };

/**
 * Tables added since schema version 1 without a new schema version (`snapshots`, `run_calls`,
 * `pruned_runs`): a store of any version may lack them, and opening it writable adds them. Every other table of {@link SCHEMA_TABLES}
 * has been written, with its indexes, before the `schema_version` row by every build since the first: a
 * store lacking one of them is not a store (see `storeFileKind`).
 */
export const LATER_TABLES: readonly string[] = ["snapshots", "run_calls", "pruned_runs"];
