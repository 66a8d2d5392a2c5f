import type { ThreadId } from "@obelisk/core";
import type { CallRecord, WriteLogEntry } from "../store-types.js";
import { parseStoredMutable } from "./parse-frozen.js";
import { type CompactionEntry, planLogCompaction, standIn } from "./plan-log-compaction.js";
import { type LogHead, logHead } from "./sqlite-log-heads.js";
import { recordCallsOf, type SqliteStatements } from "./sqlite-schema.js";
import { callKey, strippedRecord } from "./strip-record.js";

/** A call of a run, as a write-log entry or a stored output names the record holding its value. */
export interface CallOf {
  readonly runId: string;
  readonly callId: string;
}

/** The call whose value a log entry holds: a write not compacted yet (lifecycle entries hold none). */
function holderOf(head: LogHead): CallOf | undefined {
  if (head.op !== undefined || head.compacted === true) return undefined;
  return { runId: head.runId, callId: head.callId };
}

/** What compacting needs of an entry's head. */
function factsOf(head: LogHead): CompactionEntry {
  return {
    path: head.path,
    method: head.method,
    ...(head.op === undefined ? {} : { op: head.op }),
    ...(head.compacted === true ? { compacted: true as const } : {}),
  };
}

/** The columns of a record that a strip keeps. */
interface StrippedRow {
  readonly thread_id: string;
  readonly run_id: string;
  readonly call_id: string;
  readonly status: string;
}

/**
 * Bounded history in a SQLite store's file (decision record 0029), run inside the transactions that call
 * it: the write log compacted (`planLogCompaction`: entries dropped, values replaced by stand-ins) and the
 * call records that hold only values gone from the thread stripped of a large result (`strippedRecord`).
 */
export class SqliteCompaction {
  constructor(
    private readonly sql: SqliteStatements,
    readonly recordResultBytes: number,
  ) {}

  /** The heads of a thread's write-log rows, oldest first (values are not parsed: {@link logHead}). */
  private heads(threadId: ThreadId): LogHead[] {
    return (this.sql.logAll.all(threadId) as { entry: string }[]).map((row) => logHead(row.entry, threadId));
  }

  /**
   * True when the value of a row may be larger than a record's result may be once its values are gone
   * (a record's result is the value it wrote): its JSON text, at most three bytes a character, is.
   */
  private large(head: LogHead): boolean {
    return head.text.length * 3 > this.recordResultBytes;
  }

  /**
   * Compacts the whole write log of a thread — called with a snapshot at the thread's next sequence number
   * written in the same transaction, so reopening the thread folds none of the entries it changes — and
   * strips the records none of whose values it holds any more.
   */
  compact(threadId: ThreadId): void {
    const heads = this.heads(threadId);
    const fates = planLogCompaction(heads.map(factsOf));
    const holding = new Set<string>();
    const freed = new Map<string, CallOf>();
    // consecutive entries that go are deleted as one range of the primary key
    let dropFrom: number | undefined;
    let dropTo = 0;
    const deleteDropped = (): void => {
      if (dropFrom !== undefined) this.sql.logDeleteRange.run(threadId, dropFrom, dropTo);
      dropFrom = undefined;
    };
    heads.forEach((head, index) => {
      const fate = fates[index];
      const holder = holderOf(head);
      const key = holder === undefined ? undefined : callKey(holder.runId, holder.callId);
      if (fate !== "drop") deleteDropped();
      if (fate === "keep") {
        if (key !== undefined) holding.add(key);
        return;
      }
      if (key !== undefined && this.large(head)) freed.set(key, holder as CallOf);
      if (fate === "drop") {
        dropFrom ??= head.seq;
        dropTo = head.seq;
      } else if (head.compacted !== true) {
        const entry = parseStoredMutable<WriteLogEntry>(head.text, {
          table: "write_log",
          column: "entry",
          threadId,
        });
        const write = { ...entry.write, value: standIn(entry.write.value) };
        this.sql.logUpdate.run(JSON.stringify({ ...entry, write, compacted: true }), threadId, head.seq);
      }
    });
    deleteDropped();
    const emptied: CallOf[] = [];
    for (const [key, call] of freed) if (!holding.has(key)) emptied.push(call);
    this.stripCalls(threadId, emptied);
  }

  /** Strips the records of every value the write log holds (a `reset` is about to clear it). */
  stripLogged(threadId: ThreadId): void {
    const calls: CallOf[] = [];
    for (const head of this.heads(threadId)) {
      const holder = holderOf(head);
      if (holder !== undefined && this.large(head)) calls.push(holder);
    }
    this.stripCalls(threadId, calls);
  }

  /**
   * Strips the records of calls of runs on a thread of a large result (their values are gone). A stripped
   * record is deleted and inserted again with its id rather than updated: SQLite merges a table's nearly
   * empty pages when a row is deleted, never when one shrinks in place, so updated records left their pages
   * mostly empty (the free space of pages in use, which no later row reuses: ids only grow) and the file grew
   * with every stripped record (1,000 / 5,000 ticks of a 20 KB result: 8.87 / 41.91 MB; decision 0034).
   */
  stripCalls(threadId: ThreadId, calls: readonly CallOf[]): void {
    if (calls.length === 0 || this.recordResultBytes === Number.POSITIVE_INFINITY) return;
    this.eachRecord(threadId, calls, (id, record) => {
      const stripped = strippedRecord(record, this.recordResultBytes);
      if (stripped === undefined) return;
      const row = this.sql.recordStripTake.get(id) as StrippedRow;
      this.sql.recordStripPut.run(
        id,
        row.thread_id,
        row.run_id,
        row.call_id,
        row.status,
        JSON.stringify(stripped),
      );
    });
  }

  /**
   * Calls `use` with the records of calls of runs on a thread: each run's records are looked through once
   * (by the `(run_id, id)` index, reading their call ids only), whatever the number of its calls.
   */
  private eachRecord(
    threadId: ThreadId,
    calls: readonly CallOf[],
    use: (id: number, record: CallRecord) => void,
  ): void {
    const byRun = new Map<string, Set<string>>();
    for (const { runId, callId } of calls) {
      const ids = byRun.get(runId);
      if (ids === undefined) byRun.set(runId, new Set([callId]));
      else ids.add(callId);
    }
    for (const [runId, callIds] of byRun) {
      const rows = recordCallsOf(this.sql, runId, threadId);
      for (const row of rows) {
        if (!callIds.has(row.call_id)) continue;
        const { record } = this.sql.recordById.get(row.id) as { record: string };
        use(
          row.id,
          parseStoredMutable<CallRecord>(record, {
            table: "call_records",
            column: "record",
            threadId,
            runId,
          }),
        );
      }
    }
  }

  /**
   * The records holding a value the thread still has: of the writes a compaction would keep (the log is
   * left as it is: compacting it needs a snapshot), and of the stored outputs.
   */
  holders(threadId: ThreadId): CallRecord[] {
    return this.recordsOf(threadId, this.holdingCalls(threadId));
  }

  /** The records of calls of runs on a thread (those the file still holds). */
  recordsOf(threadId: ThreadId, calls: ReadonlyMap<string, CallOf>): CallRecord[] {
    const records: CallRecord[] = [];
    this.eachRecord(threadId, [...calls.values()], (_id, record) => records.push(record));
    return records;
  }

  /**
   * The calls holding a value the thread still has, by {@link callKey}: of the writes a compaction would
   * keep, and of the stored outputs.
   */
  holdingCalls(threadId: ThreadId): Map<string, CallOf> {
    const calls = new Map<string, CallOf>();
    const heads = this.heads(threadId);
    const fates = planLogCompaction(heads.map(factsOf));
    heads.forEach((head, index) => {
      const holder = holderOf(head);
      if (holder !== undefined && fates[index] === "keep")
        calls.set(callKey(holder.runId, holder.callId), holder);
    });
    for (const row of this.sql.varCallOutputs.all(threadId) as { meta: string; path: string }[]) {
      const meta = parseStoredMutable<{ runId: string }>(row.meta, {
        table: "variables",
        column: "meta",
        threadId,
      });
      const callId = String(
        parseStoredMutable<unknown[]>(row.path, { table: "variables", column: "path", threadId })[0],
      );
      calls.set(callKey(meta.runId, callId), { runId: meta.runId, callId });
    }
    return calls;
  }
}
