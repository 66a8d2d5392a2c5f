import type { JsonValue, OutputMethod, Path } from "@obelisk/core";

/**
 * When the stores compact a thread's log (decision record 0029): at `reset`, when one eviction removes at
 * least this many bytes of state variables, and once this many bytes (or the state's size, when larger)
 * were written since the last time — the memory store counts the bytes of the values written or evicted,
 * SQLite the characters of the log after its last snapshot (it compacts whenever it writes a snapshot).
 * The overwritten and evicted values a log holds are bounded by it.
 */
export const COMPACT_MIN_BYTES = 256 * 1024;

/** What compacting the write log needs of one entry. */
export interface CompactionEntry {
  /** `unset` (a removal) or `reset`; absent for a write. */
  readonly op?: "unset" | "reset";
  /** The path written or removed. */
  readonly path: Path;
  /** The write's method (`set` for lifecycle entries). */
  readonly method: OutputMethod;
  /** True when its value is a stand-in already. */
  readonly compacted?: true;
}

/** What compaction does with one entry: keep it, replace its value by a stand-in, or drop it. */
export type EntryFate = "keep" | "standIn" | "drop";

/** No entry (later than any index). */
const NONE = Number.POSITIVE_INFINITY;

/**
 * A path of the log, normalized to text segments: `a[0]` and `a["0"]` address one key of an object (a
 * write of `a["0"]` into an array fails, so the log never holds one where `a` is an array).
 */
interface PathNode {
  children: Map<string, PathNode> | undefined;
  /** The earliest later entry that replaces all of this path: a `set` or an `unset` at it. */
  cover: number;
  /** The earliest later entry strictly below this path. */
  below: number;
  /** The earliest later entry at this path, of any kind. */
  at: number;
}

const newNode = (): PathNode => ({ children: undefined, cover: NONE, below: NONE, at: NONE });

/**
 * Which write-log entries still matter to the fold (decision record 0029). An entry is *covered* when a
 * later `set` or `unset` at its path or above it replaces everything it wrote. A covered entry goes when
 * the covering path is a top-level key: below the root (always an object) nothing outside that key sees it,
 * and everything at or below the key before the cover goes with it. A covered write deeper down keeps its
 * place and path — creating the containers on its way and appending at an index fold the same — but its
 * value becomes a stand-in of the same kind ({@link standIn}), when no entry between it and its cover
 * writes strictly below its path (such an entry walks into the value and needs its shape). Everything else
 * is kept. A covered write that would stand in goes instead when its path already holds a value where it
 * applies and nothing sees the value it wrote ({@link dropSuperseded}): successive overwrites of one nested
 * path leave one stand-in, not one each. The log that results folds, from the empty state and entry by
 * entry, to exactly what the whole log folds to (property-tested in `plan-log-compaction.test.ts`);
 * compacting it again changes nothing. Entries before a `reset` go. O(entries × path depth).
 */
export function planLogCompaction(entries: readonly CompactionEntry[]): EntryFate[] {
  const fates = planOnce(entries);
  // A superseded write that went may have been all that kept an earlier one of its path in place (an entry
  // between it and its cover): plan the entries left again until nothing more goes, so that compacting the
  // result changes nothing. Overwrites with accumulating writes between them take two rounds, most logs one;
  // a chain of k pushes between two sets of one path takes k, each a pass over the log: past
  // compactionRounds(n) the rest waits for the next compaction, so that a commit never pays k × n.
  let superseded = fates.superseded;
  for (let round = 1; superseded && round < compactionRounds(entries.length); round++) {
    const left: number[] = [];
    const view: CompactionEntry[] = [];
    for (let index = 0; index < entries.length; index++) {
      const fate = fates.fates[index];
      if (fate === "drop") continue;
      const entry = entries[index] as CompactionEntry;
      left.push(index);
      view.push(fate === "standIn" && entry.compacted !== true ? { ...entry, compacted: true } : entry);
    }
    const again = planOnce(view);
    left.forEach((index, at) => {
      fates.fates[index] = again.fates[at] as EntryFate;
    });
    superseded = again.superseded;
  }
  return fates.fates;
}

/**
 * How many rounds {@link planLogCompaction} plans a log of `length` entries in at most: two, and more for a
 * short log (every round is a pass over it), so that the passes of one compaction stay within
 * 2 × length + 20,000 entries.
 */
export function compactionRounds(length: number): number {
  return 2 + Math.floor(20_000 / Math.max(length, 1));
}

/** One round of {@link planLogCompaction}; `superseded` tells whether {@link dropSuperseded} dropped any. */
function planOnce(entries: readonly CompactionEntry[]): { fates: EntryFate[]; superseded: boolean } {
  const fates: EntryFate[] = new Array(entries.length);
  /** Entries whose value nothing sees before their cover: no entry at their path or above comes between. */
  const unseen: boolean[] = new Array(entries.length).fill(false);
  const root = newNode();
  let resetAt = NONE;
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index] as CompactionEntry;
    if (entry.op === "reset") {
      fates[index] = "keep";
      resetAt = index;
      continue;
    }
    if (resetAt !== NONE) {
      fates[index] = "drop";
      continue;
    }
    const path = entry.path;
    let node = root;
    let cover = NONE;
    let top = NONE;
    let touched = NONE;
    for (let depth = 0; depth < path.length; depth++) {
      const child = childAt(node, String(path[depth]), newNode);
      if (depth > 0) node.below = index; // a strict ancestor: this entry is below it
      node = child;
      if (depth === 0) top = node.cover;
      if (node.cover < cover) cover = node.cover;
      if (node.at < touched) touched = node.at;
    }
    if (top !== NONE) fates[index] = "drop";
    else if (entry.op !== "unset" && cover !== NONE && node.below > cover) {
      fates[index] = "standIn";
      // the cover is the first entry at this path or above it: none reads or combines with this value
      unseen[index] = path.length > 1 && touched >= cover;
    } else fates[index] = entry.compacted === true ? "standIn" : "keep";
    if (entry.op === "unset" ? removesAlways(path) : entry.method === "set") node.cover = index;
    if (path.length > 0) node.at = index;
  }
  const superseded = dropSuperseded(entries, fates, unseen);
  dropIdleRemovals(entries, fates);
  return { fates, superseded };
}

/** A path's node of the forward pass of {@link dropSuperseded}: the latest entries left at it. */
interface HeldNode {
  children: Map<string, HeldNode> | undefined;
  /** The latest write left in the log at this path (-1: none). */
  write: number;
  /** The latest removal left in the log at this path (-1: none). */
  unset: number;
  /** The latest entry left in the log at this path, of any kind (-1: none). */
  any: number;
}

const newHeldNode = (): HeldNode => ({ children: undefined, write: -1, unset: -1, any: -1 });

/** The child of a path node at `key`, made by `make` on first use. */
function childAt<Node extends { children: Map<string, Node> | undefined }>(
  node: Node,
  key: string,
  make: () => Node,
): Node {
  let child = node.children?.get(key);
  if (child === undefined) {
    child = make();
    node.children ??= new Map();
    node.children.set(key, child);
  }
  return child;
}

/**
 * Drops the stand-ins that would only repeat one already in place: a covered write nothing sees before its
 * cover (`unseen`: no entry at its path or above it comes between, and none below it, or it would be kept)
 * goes when the log left before it holds a write at its very path that no removal at the path and no entry
 * above it has undone since. Its path then holds a value when it applies, so it only replaces that value
 * in place — it creates no container, no key and no array index — and what it wrote is replaced or removed
 * by its cover before anything reads it. Without this, a thread overwriting a nested path each run (`a.b`)
 * kept one stand-in per run for ever: the first write of the path stays (a stand-in), the others go.
 */
function dropSuperseded(
  entries: readonly CompactionEntry[],
  fates: EntryFate[],
  unseen: readonly boolean[],
): boolean {
  const root = newHeldNode();
  let dropped = false;
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] as CompactionEntry;
    if (fates[index] === "drop" || entry.op === "reset") continue;
    const path = entry.path;
    if (path.length === 0) continue;
    let node = root;
    let undone = -1; // the latest entry left that may have taken the path's value away
    for (let depth = 0; depth < path.length; depth++) {
      if (depth > 0 && node.any > undone) undone = node.any; // an entry above the path
      node = childAt(node, String(path[depth]), newHeldNode);
    }
    if (node.unset > undone) undone = node.unset;
    if (unseen[index] === true && node.write > undone) {
      fates[index] = "drop";
      dropped = true;
      continue;
    }
    node.any = index;
    if (entry.op === "unset") node.unset = index;
    else node.write = index;
  }
  return dropped;
}

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
function dropIdleRemovals(entries: readonly CompactionEntry[], fates: EntryFate[]): void {
  const root: WrittenNode = { children: undefined, at: false, below: false };
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
    else if (!touched) fates[index] = "drop";
  }
}

/** A text segment that reads as an array index (`"0"`, `"12"`): on an array it addresses nothing. */
const INDEX_TEXT = /^(?:0|[1-9][0-9]*)$/;

/**
 * True when an `unset` at `path` removes whatever is there, whatever the containers on the way: not when a
 * segment below the root is index-like text (`a["0"]`), which removes a key of an object but nothing of an
 * array, where `a[0]` would leave a hole. A written path never has one on an array (the write would fail),
 * so only such removals are not covers.
 */
function removesAlways(path: Path): boolean {
  for (let depth = 1; depth < path.length; depth++) {
    const segment = path[depth];
    if (typeof segment === "string" && INDEX_TEXT.test(segment)) return false;
  }
  return true;
}

/** The stand-in of a value no longer kept: `{}`, `[]` or `null`, as the value is an object, an array or not. */
export function standIn(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return EMPTY_ARRAY;
  return value !== null && typeof value === "object" ? EMPTY_OBJECT : null;
}

const EMPTY_ARRAY: JsonValue = Object.freeze([]) as unknown as JsonValue;
const EMPTY_OBJECT: JsonValue = Object.freeze({}) as JsonValue;
