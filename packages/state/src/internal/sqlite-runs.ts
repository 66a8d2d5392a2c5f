import { type JsonValue, ObeliskError, type RunId } from "@obelisk/core";
import type BetterSqlite3 from "better-sqlite3";
import type { FinalPlan, RunRecord, RunStatus, RunSummary } from "../store-types.js";
import { assertAppendable, withAppendedCalls } from "./append-run-calls.js";
import type { StoredRunsQuery } from "./history-arguments.js";
import { parseStored } from "./parse-frozen.js";
import type { SqliteStatements } from "./sqlite-schema.js";

/** The `seq` bound of a listing without a `before` cursor: above every run's. */
const NO_CURSOR = Number.MAX_SAFE_INTEGER;

/** A `runs` row as the run queries select it. */
type RunRow = { run_id: string; thread_id: string; record: string };

/** A run's record; a damaged one (not JSON) is STORE_ERROR naming the run. */
const parseRun = (row: RunRow): RunRecord =>
  parseStored<RunRecord>(row.record, {
    table: "runs",
    column: "record",
    threadId: row.thread_id,
    runId: row.run_id,
  });

/**
 * The run records of the SQLite store: one `runs` row per run, and while a streaming run goes on, one
 * `run_calls` row per call appended to it (an append never rewrites the record); reads return the record
 * with those calls at the end of its plan, and finishing folds them in and drops the rows.
 */
export class SqliteRuns {
  private readonly appendTx: (runId: RunId, first: number, texts: readonly string[]) => void;
  private readonly finishTx: (runId: RunId, status: RunStatus, record: string) => void;
  /** The next `run_calls` sequence number of each run this store appended to. */
  private readonly appendNext = new Map<string, number>();

  constructor(
    db: BetterSqlite3.Database,
    private readonly sql: SqliteStatements,
  ) {
    this.appendTx = db.transaction((runId: RunId, first: number, texts: readonly string[]) => {
      for (let at = 0; at < texts.length; at++) sql.runCallAppend.run(runId, first + at, texts[at]);
    });
    this.finishTx = db.transaction((runId: RunId, status: RunStatus, record: string) => {
      sql.runUpdate.run(status, record, runId);
      sql.runCallsDelete.run(runId);
    });
  }

  /** True when the file holds a run of this id. */
  holds(runId: RunId): boolean {
    return this.sql.runGet.get(runId) !== undefined;
  }

  /** Records a new run (its id checked already: the `runs` table refuses one it holds). */
  insert(run: RunRecord): void {
    this.sql.runInsert.run(run.runId, run.threadId, run.status, JSON.stringify(run));
  }

  /** Ends `run` (read with its appended calls): status, end time, `final` plan, `reason`; one transaction. */
  finish(run: RunRecord, status: RunStatus, endedAt: string, final?: FinalPlan, reason?: string): void {
    this.end(run, { ...final, status, endedAt, ...(reason === undefined ? {} : { reason }) });
  }

  /** Ends `run` (read with its appended calls) with `ending` over it, its appended calls folded in. */
  end(run: RunRecord, ending: Partial<RunRecord> & { readonly status: RunStatus }): void {
    this.finishTx(run.runId, ending.status, JSON.stringify({ ...run, ...ending }));
    this.appendNext.delete(run.runId);
  }

  /** The thread's `running` runs, with their appended calls. */
  runningOf(threadId: string): readonly RunRecord[] {
    const rows = this.sql.runsRunningOfThread.all(threadId) as RunRow[];
    return rows.map((row) => this.withCalls(parseRun(row)));
  }

  /** Appends calls to a running run's plan: checked once per run (RUN_NOT_FOUND, USAGE), then O(calls). */
  append(runId: RunId, calls: readonly JsonValue[]): void {
    let next = this.appendNext.get(runId);
    if (next === undefined) {
      const run = this.read(runId);
      if (run === undefined) throw new ObeliskError("RUN_NOT_FOUND", `no run "${runId}"`);
      assertAppendable(run);
      next = (this.sql.runCallsNext.get(runId) as { next: number }).next;
    }
    const texts = calls.map((call) => JSON.stringify(call));
    this.appendTx(runId, next, texts);
    this.appendNext.set(runId, next + texts.length);
  }

  /** A run by id, with the calls appended to it. */
  read(runId: RunId): RunRecord | undefined {
    const row = this.sql.runGet.get(runId) as RunRow | undefined;
    return row === undefined ? undefined : this.withCalls(parseRun(row));
  }

  /** Runs as stored, newest first. */
  query(query: StoredRunsQuery): readonly RunRecord[] {
    const rows = (query.waiting ? this.waitingRows(query) : this.rows(query)) as RunRow[];
    return rows.map((row) => this.withCalls(parseRun(row)));
  }

  /**
   * The runs of {@link query} (never `waiting`) without plans and inputs: SQLite leaves them out of the
   * rows it answers (`json_remove`) and counts the calls (decision 0104).
   */
  summaries(query: StoredRunsQuery): readonly RunSummary[] {
    const rows = this.rows(query, true) as (RunRow & { calls: number })[];
    return rows.map((row) => ({ ...(parseRun(row) as Omit<RunSummary, "calls">), calls: row.calls }));
  }

  /** A run's thread and `seq` (its place in the order runs were recorded), or undefined. */
  place(runId: RunId): { readonly threadId: string; readonly place: number } | undefined {
    const row = this.sql.runPlace.get(runId) as { seq: number; thread_id: string } | undefined;
    return row === undefined ? undefined : { threadId: row.thread_id, place: row.seq };
  }

  /** The newest run recorded with `resumeOf: runId` (with its appended calls), or undefined. */
  resumeOf(runId: RunId): RunRecord | undefined {
    const row = this.sql.runResumedBy.get(runId) as RunRow | undefined;
    return row === undefined ? undefined : this.withCalls(parseRun(row));
  }

  /** The rows of {@link query} without `waiting`: by the thread's index or `runs_status`. */
  private rows(
    { threadId, limit: given, statuses, before = NO_CURSOR }: StoredRunsQuery,
    summaries = false,
  ): unknown[] {
    // SQLite: a negative LIMIT means no limit
    const limit = given ?? -1;
    const sql = this.sql;
    // one or two statuses (`status = ? OR status = ?`, the one given twice)
    const [first, second = first] = statuses ?? [];
    if (statuses === undefined)
      return threadId === undefined
        ? (summaries ? sql.summariesAll : sql.runsAll).all(before, limit)
        : (summaries ? sql.summariesOfThread : sql.runsOfThread).all(threadId, before, limit);
    return threadId === undefined
      ? (summaries ? sql.summariesByStatus : sql.runsByStatus).all(first, second, before, limit)
      : (summaries ? sql.summariesOfThreadByStatus : sql.runsOfThreadByStatus).all(
          threadId,
          first,
          second,
          before,
          limit,
        );
  }

  /** The rows of {@link query} with `waiting`: from the `waiting` call records, then thread and status. */
  private waitingRows({ threadId, limit, statuses, before = NO_CURSOR }: StoredRunsQuery): unknown[] {
    const [first = null, second = first] = statuses ?? [];
    return this.sql.runsWaiting.all({ thread: threadId ?? null, first, second, before, limit: limit ?? -1 });
  }

  /** A running run's record with the calls appended to it at the end of its plan. */
  private withCalls(run: RunRecord): RunRecord {
    if (run.status !== "running") return run;
    const rows = this.sql.runCallsOf.all(run.runId) as { call: string }[];
    return withAppendedCalls(
      run,
      rows.map((row) =>
        parseStored<JsonValue>(row.call, {
          table: "run_calls",
          column: "call",
          threadId: run.threadId,
          runId: run.runId,
        }),
      ),
    );
  }
}
