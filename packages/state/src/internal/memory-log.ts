import type { JsonValue, OutputMethod, Path } from "@obelisk/core";
import type { CallRecord, StateWrite, WriteLogEntry } from "../store-types.js";
import { type CompactionEntry, planLogCompaction, standIn } from "./plan-log-compaction.js";
import { type CommitLog, commitLogEntry } from "./thread-model.js";

/** One slot of a {@link FlatLog}. */
type LogSlot = number | string | CallRecord | WriteLogEntry | Path | JsonValue;

/**
 * A thread's write log in the memory store, flat, seven slots per entry: seq, date, source, then the
 * write's path, method, value and reference. The source is the commit's call record (the entry and its
 * write are built on read, {@link commitLogEntry}) or, for lifecycle and compacted entries, the entry
 * itself. No objects per logged write: the log grows with every write and lives as long as the thread.
 * The slots are kept in chunks of {@link CHUNK_SLOTS} (the last one filling up, never empty but in an
 * empty log): one array of every slot cost ~1 µs per appended entry once past ~10,000 entries, growing
 * in old space, against ~0.05 µs in chunks (stop 29, measured).
 */
export type FlatLog = LogSlot[][];
const LOG_SLOTS = 7;
/** Slots per chunk: 512 entries (28 KiB of pointers). */
const CHUNK_SLOTS = LOG_SLOTS * 512;

/** An empty log. */
export function newLog(): FlatLog {
  return [[]];
}

/** The chunk the next entry goes into (a new one when the last is full). */
function tailOf(log: FlatLog): LogSlot[] {
  const tail = log[log.length - 1] as LogSlot[];
  if (tail.length < CHUNK_SLOTS) return tail;
  const next: LogSlot[] = [];
  log.push(next);
  return next;
}

/** Appends lifecycle entries (built already) to a flat log. */
export function appendEntries(log: FlatLog, entries: readonly WriteLogEntry[]): void {
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] as WriteLogEntry;
    tailOf(log).push(entry.seq, entry.date, entry, null, null, null, null);
  }
}

/** Appends a commit's writes, logged as its record's, to a flat log (no object per write). */
export function appendCommit(log: FlatLog, commitLog: CommitLog, record: CallRecord): void {
  const { firstSeq, date, writes } = commitLog;
  for (let index = 0; index < writes.length; index++) {
    const { path, method, value, reference } = writes[index] as StateWrite;
    tailOf(log).push(firstSeq + index, date, record, path, method, value, reference);
  }
}

/** The entry at slot `at` of a chunk: the source itself when it is an entry, else built from the slots. */
function entryAt(chunk: readonly LogSlot[], at: number): WriteLogEntry {
  const source = chunk[at + 2] as CallRecord | WriteLogEntry;
  if ("seq" in source) return source;
  const write: StateWrite = {
    path: chunk[at + 3] as Path,
    method: chunk[at + 4] as OutputMethod,
    value: chunk[at + 5] as JsonValue,
    reference: chunk[at + 6] as string,
  };
  return commitLogEntry(chunk[at] as number, source, chunk[at + 1] as string, write);
}

/** The entries of a flat log, oldest first. */
export function readEntries(log: FlatLog): WriteLogEntry[] {
  const entries: WriteLogEntry[] = [];
  for (const chunk of log)
    for (let at = 0; at < chunk.length; at += LOG_SLOTS) entries.push(entryAt(chunk, at));
  return entries;
}

/** The records of the writes a flat log still holds the values of (not compacted). */
export function recordsHolding(log: FlatLog): Set<CallRecord> {
  const holding = new Set<CallRecord>();
  for (const chunk of log)
    for (let at = 0; at < chunk.length; at += LOG_SLOTS) {
      const source = chunk[at + 2] as CallRecord | WriteLogEntry;
      if (!("seq" in source)) holding.add(source);
    }
  return holding;
}

/** What compacting a flat log left and freed. */
export interface CompactedLog {
  /** The log that folds as the old one did. */
  readonly log: FlatLog;
  /** Records none of whose written values the log still holds, that held one before. */
  readonly emptied: readonly CallRecord[];
  /** Records whose written values the log still holds (of a write it keeps as it is). */
  readonly holding: ReadonlySet<CallRecord>;
}

/** The compaction facts of the entry at slot `at` of a chunk (see `planLogCompaction`). */
function factsAt(chunk: readonly LogSlot[], at: number): CompactionEntry {
  const source = chunk[at + 2] as CallRecord | WriteLogEntry;
  if ("seq" in source) {
    const { op, write, compacted } = source;
    return {
      path: write.path,
      method: write.method,
      ...(op === undefined ? {} : { op }),
      ...(compacted === true ? { compacted } : {}),
    };
  }
  return { path: chunk[at + 3] as Path, method: chunk[at + 4] as OutputMethod };
}

/**
 * Compacts a flat log (decision record 0029): entries whose values no later entry needs are dropped or
 * keep a stand-in value (`planLogCompaction`); a stand-in entry is stored built, naming its call without
 * holding its record. Answers the new log and the records it no longer holds any value of.
 */
export function compactLog(log: FlatLog): CompactedLog {
  const facts: CompactionEntry[] = [];
  for (const chunk of log)
    for (let at = 0; at < chunk.length; at += LOG_SLOTS) facts.push(factsAt(chunk, at));
  const fates = planLogCompaction(facts);
  const next = newLog();
  const holding = new Set<CallRecord>();
  const freed = new Set<CallRecord>();
  let index = 0;
  for (const chunk of log)
    for (let at = 0; at < chunk.length; at += LOG_SLOTS, index++) {
      const fate = fates[index];
      const source = chunk[at + 2] as CallRecord | WriteLogEntry;
      const owner = "seq" in source ? undefined : source;
      if (fate === "keep") {
        copyEntry(next, chunk, at);
        if (owner !== undefined) holding.add(owner);
        continue;
      }
      if (owner !== undefined) freed.add(owner);
      if (fate === "drop") continue;
      if (owner === undefined) {
        copyEntry(next, chunk, at);
        continue;
      }
      const entry = entryAt(chunk, at);
      const compacted: WriteLogEntry = Object.freeze({
        ...entry,
        write: Object.freeze({ ...entry.write, value: standIn(entry.write.value) }),
        compacted: true as const,
      });
      tailOf(next).push(entry.seq, entry.date, compacted, null, null, null, null);
    }
  const emptied: CallRecord[] = [];
  for (const record of freed) if (!holding.has(record)) emptied.push(record);
  return { log: next, emptied, holding };
}

/** Appends the entry at slot `at` of a chunk to a log as it is. */
function copyEntry(log: FlatLog, chunk: readonly LogSlot[], at: number): void {
  const tail = tailOf(log);
  for (let slot = 0; slot < LOG_SLOTS; slot++) tail.push(chunk[at + slot] as LogSlot);
}
