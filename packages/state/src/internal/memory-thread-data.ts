import type { JsonValue } from "@obelisk/core";
import type { Tombstone } from "../store-types.js";
import { type CompletedIndex, newCompletedIndex } from "./memory-call-records.js";
import { type FlatLog, newLog } from "./memory-log.js";
import { PathTrie } from "./path-trie.js";
import { COMPACT_MIN_BYTES } from "./plan-log-compaction.js";
import { statePathOf } from "./superseded-below.js";
import type { ThreadModel } from "./thread-model.js";
import { tombstonesKept } from "./tombstone-bound.js";

/** What the memory store keeps of a thread besides its model: counter, log, outputs, tombstones, index. */
export interface ThreadData {
  readonly threadId: string;
  callCounter: number;
  log: FlatLog;
  readonly outputs: Map<string, JsonValue>;
  readonly tombstones: Map<string, Tombstone>;
  /** The state tombstones among `tombstones`, by path (those at, above and below a write are found by it). */
  readonly statePaths: PathTrie;
  /** The satisfied check's index of the thread's succeeded records. */
  index: CompletedIndex;
  /** Bytes of values written or evicted since the log was last compacted. */
  churnBytes: number;
  /** {@link churnBytes} past this compact the log (decision 0029). */
  compactAt: number;
  /**
   * True while every entry of {@link log} is a commit's write of a one-segment path (a top-level key) no
   * other entry is at or below (`CommitLog.newKeys`): compacting such a log keeps every entry and strips
   * no record (every rule of `planLogCompaction` needs an entry at, above or below another's path, or a
   * removal), so it is skipped. A written top-level key stays a variable until something logs its removal
   * (an eviction or unset logs an `unset`, a reset a `reset`), so "no variable at or below the key" means
   * "no entry at or below it" in such a log. False for good after any other entry, until a reset empties
   * the log.
   */
  plainLog: boolean;
}

/** A new thread's data. */
export function newThreadData(threadId: string): ThreadData {
  return {
    threadId,
    callCounter: 0,
    log: newLog(),
    outputs: new Map(),
    tombstones: new Map(),
    statePaths: new PathTrie(),
    index: newCompletedIndex(),
    churnBytes: 0,
    compactAt: COMPACT_MIN_BYTES,
    plainLog: true,
  };
}

/**
 * After a compaction, the values written or evicted may reach the state's size (at least
 * {@link COMPACT_MIN_BYTES}) before the log is compacted again.
 */
export function nextCompaction(data: ThreadData, model: ThreadModel): void {
  let bytes = 0;
  for (const entry of model.variables.values()) if (entry.meta.scope === "state") bytes += entry.meta.bytes;
  data.churnBytes = 0;
  data.compactAt = Math.max(COMPACT_MIN_BYTES, bytes);
}

/**
 * Drops the thread's oldest tombstones (in the order of their evictions) down to {@link tombstonesKept}
 * of `max` (decision record 0034): reading their references answers `REF_UNRESOLVED` without the
 * `REF_EVICTED` hint.
 */
export function dropOldestTombstones(data: ThreadData, max: number): void {
  const excess = data.tombstones.size - tombstonesKept(max);
  if (excess <= 0) return;
  // oldest eviction first, ties (one eviction of many values) by reference: the order SQLite's delete
  // takes (`ORDER BY evicted_at, reference`), so both stores keep the same tombstones
  const oldest = [...data.tombstones.values()].sort(byEvictionThenReference);
  for (let index = 0; index < excess; index++) {
    const { reference } = oldest[index] as Tombstone;
    data.tombstones.delete(reference);
    const path = statePathOf(reference);
    if (path !== undefined) data.statePaths.delete(path);
  }
}

/** Tombstones by eviction time, then reference, both as SQLite's BINARY collation orders text (UTF-8 bytes). */
function byEvictionThenReference(a: Tombstone, b: Tombstone): number {
  return compareUtf8(a.evictedAt, b.evictedAt) || compareUtf8(a.reference, b.reference);
}

/** Compares texts as their UTF-8 bytes compare (code point order, which UTF-16 code units do not follow). */
function compareUtf8(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(j) as number;
    if (x !== y) return x < y ? -1 : 1;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return (i < a.length ? 1 : 0) - (j < b.length ? 1 : 0);
}
