import { formatReference } from "@obelisk/core";
import type { VariableEntry } from "./thread-model.js";

const NONE: readonly string[] = Object.freeze([]);

/**
 * The tombstones a written state variable supersedes besides its own: those of the paths above it. After
 * `†state.p` was evicted, writing `†state.p.y` makes `†state.p` hold a value again, so reading
 * `†state.p.x` must not answer REF_EVICTED for `†state.p` any more (review 7 L2). O(depth); backends call
 * it only while the thread has state tombstones.
 */
export function supersededTombstones(entry: VariableEntry): readonly string[] {
  const { path } = entry;
  if (entry.meta.scope !== "state" || path.length < 2) return NONE;
  const references: string[] = [];
  for (let length = 1; length < path.length; length++)
    references.push(formatReference("state", path.slice(0, length)));
  return references;
}
