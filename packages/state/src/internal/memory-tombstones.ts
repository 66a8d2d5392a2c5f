import type { MemoryCallRecords } from "./memory-call-records.js";
import { dropOutput } from "./memory-strip.js";
import type { ThreadData } from "./memory-thread-data.js";
import { statePathOf } from "./superseded-below.js";
import type { Eviction, VariableEntry } from "./thread-model.js";

/**
 * Records a commit's evictions in the thread's data: each one's tombstone becomes the newest, an evicted
 * state variable's path is noted, an evicted output goes. Returns the bytes of state evicted.
 */
export function evictInto(
  records: MemoryCallRecords,
  resultBytes: number,
  data: ThreadData,
  evictions: readonly Eviction[],
): number {
  let evicted = 0;
  for (let index = 0; index < evictions.length; index++) {
    const { entry, tombstone } = evictions[index] as Eviction;
    // evicted again: its tombstone is the newest (the oldest go first past maxTombstones)
    data.tombstones.delete(tombstone.reference);
    data.tombstones.set(tombstone.reference, tombstone);
    if (entry.meta.scope === "state") {
      data.statePaths.set(entry.path, tombstone.reference);
      evicted += entry.meta.bytes;
    } else dropOutput(records, resultBytes, data, entry);
  }
  return evicted;
}

/**
 * A written variable supersedes the tombstones at and above its path (review 7 L2); the tombstones a
 * commit cleared go with their state paths.
 */
export function supersedeTombstones(
  data: ThreadData,
  upserts: readonly VariableEntry[],
  cleared: readonly string[],
): void {
  for (let index = 0; index < upserts.length; index++) {
    const entry = upserts[index] as VariableEntry;
    if (entry.meta.scope !== "state") data.tombstones.delete(entry.meta.reference);
    else for (const reference of data.statePaths.takeAlong(entry.path)) data.tombstones.delete(reference);
  }
  for (let index = 0; index < cleared.length; index++) {
    const reference = cleared[index] as string;
    const path = statePathOf(reference);
    if (path !== undefined) data.statePaths.delete(path);
    data.tombstones.delete(reference);
  }
}
