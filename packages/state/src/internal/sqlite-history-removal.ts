import type { RunId, ThreadId } from "@obelisk/core";
import type BetterSqlite3 from "better-sqlite3";
import type { CallRecord, ThreadDeletion } from "../store-types.js";
import { parseStoredMutable } from "./parse-frozen.js";
import type { HistoryCandidates, HistoryRun } from "./prune-history.js";
import { editPruned, HOST_EDIT_RUN_IDS, satisfyingKeys } from "./prune-runs.js";
import type { CallOf, SqliteCompaction } from "./sqlite-compaction.js";
import { recordCallsOf, type SqliteStatements } from "./sqlite-schema.js";
import { RESUME_OF } from "./sqlite-tables.js";
import { callKey } from "./strip-record.js";

/** What pruning one thread's runs removed and kept. */
export interface PrunedThread {
  readonly callRecords: number;
  readonly kept: number;
}

/** A field of a run's record; none when the record is damaged (not JSON): such a run is not old enough. */
const field = (name: string): string =>
  `(CASE WHEN json_valid(record) THEN json_extract(record, '$.${name}') END)`;

/** A `runs` row as `pruneHistory` reads it: its place and times, not its record. */
type HistoryRow = { seq: number; run_id: RunId; started_at: unknown; ended_at?: unknown };

/**
 * `pruneHistory`'s reads (decision 0075), on `runs_thread` (`thread_id, seq`): the oldest of the thread's
 * newest `keepRuns` runs (an OFFSET in the index, so as many steps as `keepRuns`), the thread's oldest run
 * (when it has fewer), and the oldest runs before a place that may go — a `waiting` call record is found in
 * `call_records_waiting`, a resume of the run in `runs_resume_of` (the expression is the index's; `+` takes
 * `run_id`'s TEXT affinity away, which would keep SQLite from seeking the expression's index), and the runs
 * that continued it, resume after resume (a recursive query on the same index), one of them still open.
 */
const HISTORY_SQL = {
  keptFrom: `SELECT seq, run_id, ${field("startedAt")} AS started_at FROM runs
    WHERE thread_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?`,
  oldest: `SELECT seq, run_id, ${field("startedAt")} AS started_at FROM runs
    WHERE thread_id = ? ORDER BY seq LIMIT 1`,
  candidates: `SELECT seq, run_id, ${field("startedAt")} AS started_at, ${field("endedAt")} AS ended_at
    FROM runs AS r WHERE thread_id = ? AND seq < ? AND status NOT IN ('running', 'interrupted')
      AND (NOT EXISTS (SELECT 1 FROM call_records AS c WHERE c.run_id = r.run_id AND c.status = 'waiting')
        OR EXISTS (SELECT 1 FROM runs WHERE ${RESUME_OF} = +r.run_id))
      AND NOT EXISTS (WITH RECURSIVE later(id, status) AS (
          SELECT run_id, status FROM runs WHERE ${RESUME_OF} = +r.run_id
          UNION SELECT runs.run_id, runs.status FROM runs JOIN later ON ${RESUME_OF} = +later.id
        ) SELECT 1 FROM later WHERE status IN ('running', 'interrupted'))
    ORDER BY seq LIMIT ?`,
} as const;

const historyRun = (row: HistoryRow): HistoryRun => ({
  runId: row.run_id,
  startedAt: typeof row.started_at === "string" ? row.started_at : undefined,
  endedAt: typeof row.ended_at === "string" ? row.ended_at : undefined,
});

/**
 * The removals of history in a SQLite store's file, each one IMMEDIATE transaction: finished runs of a
 * thread with their call records (`pruneRuns`), a whole thread (`deleteThread`).
 */
export class SqliteHistoryRemoval {
  private readonly pruneTx: (
    threadId: ThreadId,
    runIds: readonly RunId[],
    editsBefore: number,
    busy: () => boolean,
  ) => PrunedThread | undefined;
  private readonly removeTx: (threadId: ThreadId, check: () => void) => ThreadDeletion;
  private readonly history: { readonly [name in keyof typeof HISTORY_SQL]: BetterSqlite3.Statement };

  constructor(
    db: BetterSqlite3.Database,
    private readonly sql: SqliteStatements,
    private readonly compaction: SqliteCompaction,
  ) {
    this.pruneTx = db.transaction(
      (threadId: ThreadId, runIds: readonly RunId[], editsBefore: number, busy: () => boolean) =>
        busy() ? undefined : this.prune(threadId, runIds, editsBefore),
    ).immediate;
    this.removeTx = db.transaction((threadId: ThreadId, check: () => void) => {
      check();
      return this.remove(threadId);
    }).immediate;
    this.history = {
      keptFrom: db.prepare(HISTORY_SQL.keptFrom),
      oldest: db.prepare(HISTORY_SQL.oldest),
      candidates: db.prepare(HISTORY_SQL.candidates),
    };
  }

  /** The runs `pruneHistory` may remove from a thread, at most `limit` (see {@link HistoryCandidates}). */
  historyCandidates(threadId: ThreadId, keepRuns: number, limit: number): HistoryCandidates {
    const kept = this.history.keptFrom.get(threadId, keepRuns - 1) as HistoryRow | undefined;
    if (kept === undefined) {
      const oldest = this.history.oldest.get(threadId) as HistoryRow | undefined;
      return { oldestKept: oldest === undefined ? undefined : historyRun(oldest), candidates: [] };
    }
    const rows = this.history.candidates.all(threadId, kept.seq, limit) as HistoryRow[];
    return { oldestKept: historyRun(kept), candidates: rows.map(historyRun) };
  }

  /**
   * Removes runs of one thread and their records but those a re-sent call would be satisfied by for a
   * value the thread still holds, and the records of host edits that ended before `editsBefore` and hold
   * no value the thread has; undefined (nothing removed) when `busy` answers that a run holds the
   * thread's lock, asked inside the transaction.
   */
  pruneRuns(
    threadId: ThreadId,
    runIds: readonly RunId[],
    editsBefore: number,
    busy: () => boolean,
  ): PrunedThread | undefined {
    return this.pruneTx(threadId, runIds, editsBefore, busy);
  }

  /** The threads (`only`, or all) with records of host edits (`HOST_EDIT_RUN_IDS`). */
  editedThreads(only: ThreadId | undefined): Set<ThreadId> {
    const [set, unset] = HOST_EDIT_RUN_IDS;
    if (only !== undefined)
      return new Set(this.sql.editThreadHas.get(set, unset, only) === undefined ? [] : [only]);
    const rows = this.sql.editThreads.all(set, unset) as { thread_id: ThreadId }[];
    return new Set(rows.map((row) => row.thread_id));
  }

  /** The threads (`only`, or all) with pruned runs some of whose records pruning kept. */
  prunedThreads(only: ThreadId | undefined): Set<ThreadId> {
    if (only !== undefined) return new Set(this.sql.prunedThreadHas.get(only) === undefined ? [] : [only]);
    const rows = this.sql.prunedThreads.all() as { thread_id: ThreadId }[];
    return new Set(rows.map((row) => row.thread_id));
  }

  /** Removes every row of a thread, after `check` (that the caller still holds its lock) in the transaction. */
  removeThread(threadId: ThreadId, check: () => void): ThreadDeletion {
    return this.removeTx(threadId, check);
  }

  private prune(threadId: ThreadId, runIds: readonly RunId[], editsBefore: number): PrunedThread {
    const { sql } = this;
    const newest = (hash: string, count: number): CallRecord[] =>
      (sql.recordsCompleted.all(threadId, hash, count) as { record: string }[]).map((row) =>
        parseStoredMutable<CallRecord>(row.record, { table: "call_records", column: "record", threadId }),
      );
    // the thread's holders are read only when a record that could be kept is met: one without a call hash
    // never is (a satisfied lookup cannot find it), and those of old runs have mostly lost theirs (0029)
    let holding: Map<string, CallOf> | undefined;
    const holdingNow = (): Map<string, CallOf> => {
      holding ??= this.compaction.holdingCalls(threadId);
      return holding;
    };
    let keepSet: Set<string> | undefined;
    const keep = (): ReadonlySet<string> => {
      keepSet ??= satisfyingKeys(this.compaction.recordsOf(threadId, holdingNow()), newest);
      return keepSet;
    };
    let callRecords = 0;
    let kept = 0;
    // the records earlier prunes kept, by the same rule: those that hold nothing any more go (0034, Amended)
    for (const { run_id: runId } of sql.prunedRunsOf.all(threadId) as { run_id: RunId }[]) {
      // the id is a run's again (recorded after the prune): its records are that run's until it is pruned
      const removed =
        sql.runGet.get(runId) === undefined ? this.removeRecords(threadId, runId, keep) : undefined;
      callRecords += removed?.removed ?? 0;
      if (removed === undefined || removed.kept === 0) sql.prunedRunDelete.run(threadId, runId);
    }
    for (const runId of runIds) {
      const removed = this.removeRecords(threadId, runId, keep);
      callRecords += removed.removed;
      kept += removed.kept;
      if (removed.kept > 0) sql.prunedRunPut.run(threadId, runId);
      sql.runCallsDelete.run(runId);
      sql.runDelete.run(runId);
    }
    if (editsBefore !== Number.NEGATIVE_INFINITY)
      callRecords += this.pruneEdits(threadId, holdingNow(), editsBefore);
    return { callRecords, kept };
  }

  /**
   * Removes the records of a run on a thread but those `keep` has (by call key; asked only for a record with
   * a call hash); answers how many went and stayed.
   */
  private removeRecords(
    threadId: ThreadId,
    runId: RunId,
    keep: () => ReadonlySet<string>,
  ): { removed: number; kept: number } {
    let removed = 0;
    let kept = 0;
    for (const row of recordCallsOf(this.sql, runId, threadId)) {
      if (row.call_hash !== null && keep().has(callKey(runId, row.call_id))) kept++;
      else {
        this.sql.recordDelete.run(row.id);
        removed++;
      }
    }
    return { removed, kept };
  }

  /**
   * Removes the records of a thread's host edits that ended before `before` and hold no value it has
   * (`holding`: by call key, so a holding record is not even read); answers how many.
   */
  private pruneEdits(threadId: ThreadId, holding: ReadonlyMap<string, unknown>, before: number): number {
    const { sql } = this;
    let removed = 0;
    for (const runId of HOST_EDIT_RUN_IDS) {
      for (const row of recordCallsOf(sql, runId, threadId)) {
        if (holding.has(callKey(runId, row.call_id))) continue;
        const { record } = sql.recordById.get(row.id) as { record: string };
        const edit = parseStoredMutable<CallRecord>(record, {
          table: "call_records",
          column: "record",
          threadId,
          runId,
        });
        if (!editPruned(edit, before)) continue;
        sql.recordDelete.run(row.id);
        removed++;
      }
    }
    return removed;
  }

  private remove(threadId: ThreadId): ThreadDeletion {
    const { sql } = this;
    const held = sql.threadSeq.get(threadId) !== undefined;
    // before the row goes: a thread created again under this id starts above its version (decision 0098)
    if (held) sql.threadVersionFloorRaise.run(threadId);
    sql.threadRunCallsDelete.run(threadId);
    const runs = sql.threadRunsDelete.run(threadId).changes;
    const callRecords = sql.threadRecordsDelete.run(threadId).changes;
    const variables = sql.varClear.run(threadId).changes;
    for (const clear of [
      sql.logClear,
      sql.outputClear,
      sql.threadTombstonesDelete,
      sql.threadPrunedDelete,
      sql.threadSnapshotDelete,
      sql.threadDelete,
    ])
      clear.run(threadId);
    return { deleted: held || runs + callRecords > 0, runs, callRecords, variables };
  }
}
