import { asThreadId, type JsonObject, type JsonValue, type RunId, type ThreadId } from "@obelisk/core";
import type { CallRecord, StoreStats, ThreadInfo, Tombstone, WriteLogEntry } from "../store-types.js";
import { frozenLoadedOutput } from "./loaded-state.js";
import { parseStored, parseStoredMutable } from "./parse-frozen.js";
import type { SqliteStatements } from "./sqlite-schema.js";
import { byThreadId, lastActivity, type OpenRunReads } from "./thread-order.js";

/** Where a thread's call record is read from (a damaged one names its thread). */
const recordOf = (threadId: ThreadId) => ({ table: "call_records", column: "record", threadId });

/** The columns of a `threads` row a {@link ThreadInfo} is made of. */
interface ThreadInfoRow {
  thread_id: string;
  state_schema: string | null;
  created_at: string;
}

/** A `threadListIdle` row: a thread's, with its newest run when that run is `running` or `interrupted`. */
interface IdleThreadRow extends ThreadInfoRow {
  open_run: string | null;
  open_status: string | null;
  open_started: string | null;
}

/** A call record's times (`runLastRecordTimes`). */
interface ActivityRow {
  started_at: string | null;
  ended_at: string | null;
}

/** A thread's information from its row (a damaged schema is STORE_ERROR naming the thread). */
function threadInfoOf(row: ThreadInfoRow): ThreadInfo {
  return {
    threadId: asThreadId(row.thread_id),
    createdAt: row.created_at,
    ...(row.state_schema === null
      ? {}
      : {
          stateSchema: parseStoredMutable<JsonObject>(row.state_schema, {
            table: "threads",
            column: "state_schema",
            threadId: row.thread_id,
          }),
        }),
  };
}

/**
 * What a SQLite store reads from its file beside the cached models: call records, the write log, stored
 * call outputs, tombstones and statistics (JSON parsed deep-frozen).
 */
export class SqliteReads {
  constructor(private readonly sql: SqliteStatements) {}

  /** A run's call records in commit order. */
  callRecords(runId: RunId): readonly CallRecord[] {
    const rows = this.sql.recordsOfRun.all(runId) as { thread_id: string; record: string }[];
    return rows.map((row) =>
      parseStored<CallRecord>(row.record, {
        table: "call_records",
        column: "record",
        threadId: row.thread_id,
        runId,
      }),
    );
  }

  /** The latest completed record with this call hash on the thread. */
  completedCall(threadId: ThreadId, callHash: string): CallRecord | undefined {
    const row = this.sql.recordCompleted.get(threadId, callHash) as { record: string } | undefined;
    return row === undefined ? undefined : parseStored<CallRecord>(row.record, recordOf(threadId));
  }

  /** The latest `limit` completed records with this call hash on the thread, newest first. */
  completedCalls(threadId: ThreadId, callHash: string, limit: number): readonly CallRecord[] {
    const rows = this.sql.recordsCompleted.all(threadId, callHash, limit) as { record: string }[];
    return rows.map((row) => parseStored<CallRecord>(row.record, recordOf(threadId)));
  }

  /** The thread's write log, oldest first. */
  writeLog(threadId: ThreadId): readonly WriteLogEntry[] {
    return (this.sql.logAll.all(threadId) as { entry: string }[]).map((row) =>
      parseStored<WriteLogEntry>(row.entry, { table: "write_log", column: "entry", threadId }),
    );
  }

  /** A stored call output: deeply frozen, a container remembered as a frozen copy (as a loaded state's). */
  output(threadId: ThreadId, callId: string): JsonValue | undefined {
    const row = this.sql.outputGet.get(threadId, callId) as { value: string } | undefined;
    if (row === undefined) return undefined;
    const value = parseStoredMutable<JsonValue>(row.value, {
      table: "call_outputs",
      column: "value",
      threadId,
    });
    return frozenLoadedOutput(value, row.value);
  }

  /** The tombstone of an evicted reference. */
  tombstone(threadId: ThreadId, reference: string): Tombstone | undefined {
    const row = this.sql.tombstoneGet.get(threadId, reference) as
      | { reference: string; evicted_at: string; reason: string }
      | undefined;
    return row === undefined
      ? undefined
      : Object.freeze({ reference: row.reference, evictedAt: row.evicted_at, reason: row.reason });
  }

  /** Every thread of the file (`listThreads`), by id. */
  threads(): ThreadInfo[] {
    return byThreadId((this.sql.threadList.all() as ThreadInfoRow[]).map(threadInfoOf));
  }

  /**
   * The threads idle since `idleSince` (an ISO time; `listIdleThreads`), by id: those whose newest run did
   * not end by itself are asked about further (`abandoned`, their last call record: see `lastActivity`).
   */
  idleThreads(idleSince: string, abandoned: (threadId: string) => boolean): ThreadInfo[] {
    const reads: OpenRunReads = {
      abandoned,
      lastRecord: (runId) => {
        const row = this.sql.runLastRecordTimes.get(runId) as ActivityRow | undefined;
        return row === undefined
          ? undefined
          : { startedAt: row.started_at ?? undefined, endedAt: row.ended_at ?? undefined };
      },
    };
    const idle: ThreadInfo[] = [];
    for (const row of this.sql.threadListIdle.all({ since: idleSince }) as IdleThreadRow[]) {
      const open =
        row.open_run === null
          ? undefined
          : {
              runId: row.open_run,
              threadId: row.thread_id,
              status: row.open_status ?? "",
              startedAt: row.open_started ?? undefined,
            };
      if (open === undefined || lastActivity(row.created_at, open, reads) < idleSince)
        idle.push(threadInfoOf(row));
    }
    return byThreadId(idle);
  }

  /** A thread's information from its `threads` row alone (its state is not read); undefined without one. */
  thread(threadId: ThreadId): ThreadInfo | undefined {
    const row = this.sql.threadInfo.get(threadId) as ThreadInfoRow | undefined;
    return row === undefined ? undefined : threadInfoOf(row);
  }

  /** Statistics of the whole file, or of one thread (`holdsThread`: whether the store holds it). */
  stats(threadId: ThreadId | undefined, holdsThread: (threadId: ThreadId) => boolean): StoreStats {
    type ScopeRow = { scope: string; n: number; bytes: number };
    const rows = (
      threadId === undefined ? this.sql.statsVars.all() : this.sql.statsVarsThread.all(threadId)
    ) as ScopeRow[];
    const of = (scope: string) => rows.find((row) => row.scope === scope) ?? { n: 0, bytes: 0 };
    const runs = (
      threadId === undefined ? this.sql.statsRuns.get() : this.sql.statsRunsThread.get(threadId)
    ) as { n: number };
    const threads =
      threadId === undefined
        ? (this.sql.statsThreads.get() as { n: number }).n
        : holdsThread(threadId)
          ? 1
          : 0;
    const state = of("state");
    const calls = of("calls");
    return {
      threads,
      variables: state.n,
      variableBytes: state.bytes,
      callOutputs: calls.n,
      callOutputBytes: calls.bytes,
      runs: runs.n,
    };
  }
}
