import type { JsonObject, ThreadId } from "@obelisk/core";
import { applyOutputInPlace, ObeliskError } from "@obelisk/core";
import type BetterSqlite3 from "better-sqlite3";
import type { StateWrite, VariableMeta, WriteLogEntry } from "../store-types.js";
import type { FileAt } from "./expiry-view.js";
import { freezeLoadedState } from "./loaded-state.js";
import { parseStored, parseStoredMutable } from "./parse-frozen.js";
import { COMPACT_MIN_BYTES } from "./plan-log-compaction.js";
import type { SqliteCompaction } from "./sqlite-compaction.js";
import type { SqliteLock } from "./sqlite-lock.js";
import type { SqliteStatements } from "./sqlite-schema.js";
import type { SqliteTombstonesBelow } from "./sqlite-tombstones-below.js";
import { createStateValidator } from "./state-validator.js";
import { supersededTombstones } from "./superseded-tombstones.js";
import {
  type CommitExtras,
  commitLogEntry,
  createThreadModel,
  putVariable,
  replacedOutputs,
  type ThreadChange,
  type ThreadModel,
  type VariableEntry,
} from "./thread-model.js";
import { tombstonesKept } from "./tombstone-bound.js";
import { unsetAtPath } from "./unset-at-path.js";

interface ThreadRow {
  state_schema: string | null;
  created_at: string;
  next_seq: number;
  snapshot: string;
  snapshot_seq: number;
  /** 1 when the snapshot is read from the `snapshots` table, 0 from `threads`. */
  snapshot_apart: number;
  version: number;
}

/**
 * A thread's `next_seq` and change counter: equal to a cached model's, the model is current. The counter
 * never restarts under one id: a thread created again after `deleteThread` starts above every version the
 * deleted one had (the file's `thread_version_floor`, decision 0098).
 */
interface ThreadVersion {
  next_seq: number;
  version: number;
}

/**
 * A snapshot is also written in a commit's transaction once the write log after the last snapshot is longer
 * (in JSON characters) than both the snapshot and this: a reload (another process's change, a restart)
 * parses at most about twice the state's size, and writing snapshots costs O(1) per logged character.
 */
const SNAPSHOT_MIN_LOG_CHARS = 256 * 1024;

/** The sizes behind the snapshot rule, per cached model (JSON characters). */
interface LogFacts {
  /** The last snapshot's length. */
  snapshotChars: number;
  /**
   * The writes' entries persisted after it (removals, a few dozen characters each and never more than
   * the writes they remove, are not counted: a log of many small evictions does not compact more often).
   */
  logChars: number;
}

/** Folds a write-log entry into a working tree, in place (used when reopening a thread; values are fresh parses). */
function foldEntry(state: JsonObject, entry: WriteLogEntry): JsonObject {
  if (entry.op === "reset") return {};
  if (entry.op === "unset") return unsetAtPath(state, entry.write.path);
  const applied = applyOutputInPlace(state, entry.write.path, entry.write.method, entry.write.value);
  if (!applied.ok)
    throw new ObeliskError("STORE_ERROR", `write log entry ${entry.seq} does not apply: ${applied.message}`);
  return applied.value as JsonObject;
}

/**
 * The threads' rows of a SQLite store's file, as its cached models see them: a model loaded from them
 * (snapshot, the write log after it, variables), a thread saved, whether a model is current, a change
 * written in the commit's transaction (with a snapshot when the rule says so), a snapshot saved on close.
 */
export class SqliteThreadRows {
  /** Snapshot and log sizes per cached model (see {@link SNAPSHOT_MIN_LOG_CHARS}). */
  private readonly logFacts = new WeakMap<ThreadModel, LogFacts>();

  constructor(
    private readonly db: BetterSqlite3.Database,
    private readonly sql: SqliteStatements,
    private readonly lock: SqliteLock,
    private readonly tombstonesBelow: SqliteTombstonesBelow,
    private readonly compaction: SqliteCompaction,
    /** The store's `maxTombstones`: the most tombstones a thread keeps (decision 0034). */
    private readonly maxTombstones: number,
  ) {}

  /** The model of a thread as the file holds it; undefined when the file lacks the thread. */
  load(threadId: ThreadId): ThreadModel | undefined {
    const row = this.sql.threadGet.get(threadId) as ThreadRow | undefined;
    if (row === undefined) return undefined;
    const schema =
      row.state_schema === null
        ? undefined
        : parseStoredMutable<JsonObject>(row.state_schema, {
            table: "threads",
            column: "state_schema",
            threadId,
          });
    const info = {
      threadId,
      createdAt: row.created_at,
      ...(schema === undefined ? {} : { stateSchema: schema }),
    };
    const model = createThreadModel(info, schema === undefined ? undefined : createStateValidator(schema));
    let state = parseStoredMutable<JsonObject>(row.snapshot, {
      table: "threads",
      column: "snapshot",
      threadId,
    });
    let logChars = 0;
    type LogRow = { op: string | null; entry: string };
    for (const { op, entry } of this.sql.logSince.all(threadId, row.snapshot_seq) as LogRow[]) {
      state = foldEntry(
        state,
        parseStoredMutable<WriteLogEntry>(entry, { table: "write_log", column: "entry", threadId }),
      );
      if (op === null) logChars += entry.length;
    }
    model.state = state;
    model.nextSeq = row.next_seq;
    model.version = row.version;
    this.logFacts.set(model, { snapshotChars: row.snapshot.length, logChars });
    this.noteTombstones(model);
    type VarRow = { path: string; touch: number; updated_ms: number; meta: string };
    for (const v of this.sql.varLoad.all(threadId) as VarRow[]) {
      putVariable(model, {
        meta: parseStored<VariableMeta>(v.meta, { table: "variables", column: "meta", threadId }),
        path: parseStored(v.path, { table: "variables", column: "path", threadId }),
        touch: v.touch,
        updatedMs: v.updated_ms,
      });
    }
    freezeLoadedState(model);
    return model;
  }

  /** Writes a model's thread row (a new thread, a schema given to it); the model notes what changed. */
  save(model: ThreadModel): void {
    const schema = model.info.stateSchema === undefined ? null : JSON.stringify(model.info.stateSchema);
    this.insert(model, schema);
    const changed = this.sql.threadSchema.get(schema, model.threadId, schema) as ThreadVersion | undefined;
    // current only when nobody else changed the thread since the model was loaded; else reload on next check
    if (changed !== undefined)
      model.version =
        changed.version === model.version + 1 && changed.next_seq === model.nextSeq ? changed.version : -1;
    this.noteTombstones(model);
  }

  /**
   * Inserts the row of a thread the file lacks; the new model then stands at the row's first version (the
   * file's floor, above every deleted thread's). False: the file has the thread already.
   */
  private insert(model: ThreadModel, schema: string | null): boolean {
    const row = this.sql.threadInsert.get(model.threadId, schema, model.info.createdAt) as
      | { version: number }
      | undefined;
    if (row === undefined) return false;
    model.version = row.version;
    return true;
  }

  /** True when the file holds no change of the model's thread the model does not have. */
  isCurrent(model: ThreadModel): boolean {
    return this.isAt(model.threadId, model);
  }

  /** True when the file's thread is still where it was (`at`: its next sequence number and version). */
  isAt(threadId: ThreadId, at: FileAt): boolean {
    const stored = this.sql.threadSeq.get(threadId) as ThreadVersion | undefined;
    return stored !== undefined && stored.next_seq === at.nextSeq && stored.version === at.version;
  }

  /** The snapshot-rule sizes of a model (a model created here starts with an empty snapshot and log). */
  private factsOf(model: ThreadModel): LogFacts {
    let facts = this.logFacts.get(model);
    if (facts === undefined) {
      facts = { snapshotChars: 2, logChars: 0 };
      this.logFacts.set(model, facts);
    }
    return facts;
  }

  /**
   * Past `maxTombstones`, drops the thread's oldest tombstones (by eviction time, then reference) down to
   * {@link tombstonesKept}: reading their references answers `REF_UNRESOLVED` without the `REF_EVICTED`
   * hint (decision record 0034).
   */
  private dropOldestTombstones(threadId: ThreadId): void {
    const max = this.maxTombstones;
    if (max === Number.POSITIVE_INFINITY) return;
    const { n } = this.sql.tombstoneCount.get(threadId) as { n: number };
    if (n > max) this.sql.tombstonesDropOldest.run(threadId, threadId, n - tombstonesKept(max));
  }

  /**
   * Records whether the model's thread has a state tombstone in the file now (`stateTombstones`: without
   * one, a state variable written there has no tombstone to clear). Another connection evicting or
   * resetting a state variable advances the thread's sequence number, so this store's next commit re-plans
   * against a reloaded model; call-output tombstones are always cleared.
   */
  private noteTombstones(model: ThreadModel): void {
    model.stateTombstones = this.sql.tombstoneAny.get(model.threadId) !== undefined;
  }

  /**
   * The checks of a commit's `extras` (read in the commit's transaction, before anything is written): a
   * thread to create must still be missing, a call number must still be the counter's next. False: another
   * writer got there first.
   */
  private extrasHold(id: ThreadId, extras: CommitExtras | undefined): boolean {
    if (extras?.create === true && this.sql.threadSeq.get(id) !== undefined) return false;
    if (extras?.callNumber === undefined) return true;
    const row = this.sql.threadCounterRead.get(id) as { call_counter: number } | undefined;
    return (row?.call_counter ?? 0) + 1 === extras.callNumber;
  }

  /** The body of the commit transaction. */
  write(model: ThreadModel, change: ThreadChange, extras?: CommitExtras): boolean {
    const { sql } = this;
    const id = model.threadId;
    this.lock.assertOwned(id);
    if (!this.extrasHold(id, extras)) return false;
    const schema = model.info.stateSchema === undefined ? null : JSON.stringify(model.info.stateSchema);
    if (extras?.create === true && !this.insert(model, schema)) return false;
    // the staleness check and the update in one statement: no row changed = another writer moved the thread
    const advanced = sql.threadAdvance.run(
      change.nextSeq,
      model.version + 1,
      id,
      model.nextSeq,
      model.version,
    );
    if (advanced.changes === 0) return false;
    // the change's own version step covers the schema and the counter
    if (extras?.schema === true && extras.create !== true) sql.threadSchemaSet.run(schema, id);
    if (extras?.callNumber !== undefined) sql.threadCounterSet.run(extras.callNumber, id);
    const facts = this.factsOf(model);
    if (change.reset === true) {
      // nothing any record wrote stays in the thread: they keep no large result (decision 0029)
      this.compaction.stripLogged(id);
      for (const clear of [sql.logClear, sql.varClear, sql.outputClear, sql.recordsForget]) clear.run(id);
      facts.logChars = 0;
    }
    for (const entry of change.log) sql.logInsert.run(id, entry.seq, entry.op ?? null, JSON.stringify(entry));
    const { commitLog, record } = change;
    if (commitLog !== undefined && record !== undefined) {
      const { firstSeq, date, writes } = commitLog;
      for (let index = 0; index < writes.length; index++) {
        const entry = commitLogEntry(firstSeq + index, record, date, writes[index] as StateWrite);
        const text = JSON.stringify(entry);
        sql.logInsert.run(id, entry.seq, null, text);
        facts.logChars += text.length;
      }
    }
    // the model learns of this change's tombstones once it is persisted (`applyChangeToModel`)
    let evicted = 0;
    for (const { entry } of change.evictions) if (entry.meta.scope === "state") evicted += entry.meta.bytes;
    const evictsState = change.evictions.some(({ entry }) => entry.meta.scope === "state");
    if (evictsState) this.tombstonesBelow.forget(model);
    const clearStateTombstones = model.stateTombstones || evictsState;
    for (const { entry, tombstone } of change.evictions) {
      sql.varDelete.run(id, entry.meta.reference);
      if (entry.meta.scope === "calls") this.dropOutput(id, entry);
      sql.tombstoneUpsert.run(id, tombstone.reference, tombstone.evictedAt, tombstone.reason);
    }
    if (change.evictions.length > 0) this.dropOldestTombstones(id);
    for (const entry of change.drops) {
      sql.varDelete.run(id, entry.meta.reference);
      if (entry.meta.scope === "calls") this.dropOutput(id, entry);
    }
    for (const { meta, path, touch, updatedMs } of change.upserts) {
      sql.varUpsert.run(
        id,
        meta.reference,
        meta.scope,
        JSON.stringify(path),
        touch,
        updatedMs,
        meta.bytes,
        JSON.stringify(meta),
      );
      if (meta.scope !== "state") sql.tombstoneDelete.run(id, meta.reference);
      else if (clearStateTombstones) {
        sql.tombstoneDelete.run(id, meta.reference);
        for (const above of supersededTombstones({ meta, path, touch, updatedMs }))
          sql.tombstoneDelete.run(id, above);
      }
    }
    for (const reference of change.clearedTombstones) sql.tombstoneDelete.run(id, reference);
    for (const output of change.outputs)
      sql.outputUpsert.run(id, output.callId, JSON.stringify(output.value));
    for (const previous of replacedOutputs(model, change) ?? []) this.stripOwner(id, previous);
    if (record !== undefined) {
      sql.recordInsert.run(
        id,
        record.runId,
        record.callId,
        record.status,
        record.callHash ?? null,
        JSON.stringify(record),
      );
    }
    if (
      change.reset === true ||
      evicted >= COMPACT_MIN_BYTES ||
      facts.logChars > Math.max(facts.snapshotChars, SNAPSHOT_MIN_LOG_CHARS)
    ) {
      const snapshot = JSON.stringify(change.state);
      sql.snapshotPut.run(id, snapshot, change.nextSeq);
      sql.threadSnapshotClear.run(id);
      facts.snapshotChars = snapshot.length;
      facts.logChars = 0;
      // the snapshot is at the thread's next sequence number: reopening it folds no entry compaction changes
      this.compaction.compact(id);
    }
    return true;
  }

  /** A stored output goes (evicted, or replaced by another call's): its record keeps no large result. */
  private dropOutput(threadId: ThreadId, entry: VariableEntry): void {
    this.sql.outputDelete.run(threadId, String(entry.path[0]));
    this.stripOwner(threadId, entry);
  }

  /** The record that stored an output the thread no longer holds keeps no large result. */
  private stripOwner(threadId: ThreadId, output: VariableEntry): void {
    if (output.meta.bytes <= this.compaction.recordResultBytes) return;
    this.compaction.stripCalls(threadId, [{ runId: output.meta.runId, callId: String(output.path[0]) }]);
  }

  /**
   * On close: saves the model's state as the thread's snapshot, and compacts the log with it (decision
   * 0029), when the model is still current and the log after the last snapshot is past half of what makes
   * a commit write one. A smaller log is left to be folded at the next open (it stays within that bound):
   * a snapshot at every close would restart the count, and a thread written only by short-lived processes
   * (the CLI) would never compact its log.
   */
  saveSnapshotIfCurrent(model: ThreadModel): void {
    const { sql } = this;
    const facts = this.logFacts.get(model);
    if (facts === undefined || facts.logChars <= Math.max(facts.snapshotChars, SNAPSHOT_MIN_LOG_CHARS) / 2)
      return;
    this.db
      .transaction(() => {
        const snapshot = JSON.stringify(model.state);
        const saved = sql.snapshotPutIfCurrent.run(snapshot, model.threadId, model.nextSeq, model.version);
        if (saved.changes === 0) return;
        sql.threadSnapshotClear.run(model.threadId);
        this.compaction.compact(model.threadId);
        facts.snapshotChars = snapshot.length;
        facts.logChars = 0;
      })
      .immediate();
  }
}
