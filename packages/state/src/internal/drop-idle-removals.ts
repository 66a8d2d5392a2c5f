import type { CompactionEntry, EntryFate } from "./plan-log-compaction.js";

/** A path's node of the forward pass: whether an entry left in the log wrote at it or below it. */
interface WrittenNode {
  children: Map<string, WrittenNode> | undefined;
  /** A write left in the log is at this path. */
  at: boolean;
  /** A write left in the log is strictly below this path. */
  below: boolean;
}

/**
 * Drops the `unset` entries that remove nothing from the state the log now folds to: no write left before
 * one is at, above or below its path, so nothing is there (a value at a path only comes from writes at,
 * above or below it). Such a removal's writes were all dropped with it; without this, a thread evicting a
 * new key each run would keep one entry per run.
 */
export function dropIdleRemovals(entries: readonly CompactionEntry[], fates: EntryFate[]): boolean {
  const root: WrittenNode = { children: undefined, at: false, below: false };
  let dropped = false;
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] as CompactionEntry;
    if (fates[index] === "drop" || entry.op === "reset") continue;
    const path = entry.path;
    let node = root;
    let touched = false;
    for (let depth = 0; depth < path.length; depth++) {
      const key = String(path[depth]);
      let child = node.children?.get(key);
      if (child === undefined) {
        if (entry.op === "unset") break;
        child = { children: undefined, at: false, below: false };
        node.children ??= new Map();
        node.children.set(key, child);
      }
      if (entry.op !== "unset" && depth < path.length - 1) child.below = true;
      node = child;
      if (node.at) touched = true;
      if (depth === path.length - 1 && node.below) touched = true;
    }
    if (entry.op !== "unset") node.at = true;
    else if (!touched) {
      fates[index] = "drop";
      dropped = true;
    }
  }
  return dropped;
}
