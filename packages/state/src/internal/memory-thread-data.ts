import type { JsonValue } from "@obelisk/core";
import type { Tombstone } from "../store-types.js";
import { type CompletedIndex, newCompletedIndex } from "./memory-call-records.js";
import type { FlatLog } from "./memory-log.js";
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
}

/** A new thread's data. */
export function newThreadData(threadId: string): ThreadData {
  return {
    threadId,
    callCounter: 0,
    log: [],
    outputs: new Map(),
    tombstones: new Map(),
    statePaths: new PathTrie(),
    index: newCompletedIndex(),
    churnBytes: 0,
    compactAt: COMPACT_MIN_BYTES,
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
  let excess = data.tombstones.size - tombstonesKept(max);
  for (const reference of data.tombstones.keys()) {
    if (excess-- <= 0) return;
    data.tombstones.delete(reference);
    const path = statePathOf(reference);
    if (path !== undefined) data.statePaths.delete(path);
  }
}
