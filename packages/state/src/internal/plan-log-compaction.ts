import type { JsonValue, OutputMethod, Path } from "@obelisk/core";
import { dropIdleRemovals } from "./drop-idle-removals.js";
import { removesAlways } from "./removes-always.js";

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
 * is kept. Two kinds of writes go instead, with the entries below them up to what undoes them
 * ({@link dropSuperseded}): a covered write whose path already holds a value where it applies and that
 * nothing at its path or above sees (successive overwrites of one nested path, or of `a.b` alternating with
 * `a.b.c`, leave one stand-in or value, not one each), and a write that creates an object's key the log
 * shows absent, whose next entry there or above removes that key (a nested value written and evicted every
 * run), with that removal. The log that results folds, from the empty state and entry by
 * entry, to exactly what the whole log folds to (property-tested in `plan-log-compaction.test.ts`);
 * compacting it again changes nothing. Entries before a `reset` go. O(entries × path depth).
 */
export function planLogCompaction(entries: readonly CompactionEntry[]): EntryFate[] {
  // An `unset` of index-like text that may remove nothing (`b["0"]` on an array) defeats the rules' path
  // reasoning (two property-test seeds folded wrong); the stores never log one (a removal of nothing is not
  // logged), so such a log is kept whole rather than planned.
  if (entries.some((entry) => entry.op === "unset" && !removesAlways(entry.path)))
    return entries.map((entry) => (entry.compacted === true ? "standIn" : "keep"));
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

/**
 * One round of {@link planLogCompaction}; `superseded` tells whether {@link dropSuperseded} or
 * {@link dropIdleRemovals} dropped any (another round may then drop more).
 */
function planOnce(entries: readonly CompactionEntry[]): { fates: EntryFate[]; superseded: boolean } {
  const fates: EntryFate[] = new Array(entries.length);
  /**
   * By entry, its cover when nothing sees its value before it (no entry at its path or above comes between):
   * what {@link dropSuperseded} may drop it with. NONE: seen, or no cover.
   */
  const unseenUntil: number[] = new Array(entries.length).fill(NONE);
  /** By write, the removals that first follow it at or above a prefix of its path, exactly at that prefix. */
  const removals = new Map<number, number[]>();
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
      if (node.at < touched) {
        touched = node.at;
        // the first later entry at this prefix or above is at this very prefix: a removal of it?
        if (depth > 0 && entry.op !== "unset" && isRemovalAt(entries[touched] as CompactionEntry, depth)) {
          const found = removals.get(index);
          if (found === undefined) removals.set(index, [depth, touched]);
          else found.push(depth, touched);
        }
      }
    }
    if (top !== NONE) fates[index] = "drop";
    else if (entry.op !== "unset" && cover !== NONE && node.below > cover) fates[index] = "standIn";
    else fates[index] = entry.compacted === true ? "standIn" : "keep";
    // the cover is the first entry at this path or above it: none reads or combines with this value
    if (top === NONE && entry.op !== "unset" && path.length > 1 && cover !== NONE && touched >= cover)
      unseenUntil[index] = cover;
    if (entry.op === "unset" ? removesAlways(path) : entry.method === "set") node.cover = index;
    if (path.length > 0) node.at = index;
  }
  const superseded = dropSuperseded(entries, fates, unseenUntil, removals);
  // a removal that went may have been what showed a key absent to dropSuperseded: plan again then too
  const idle = dropIdleRemovals(entries, fates);
  return { fates, superseded: superseded || idle };
}

/**
 * True when `entry` is an `unset` of exactly the prefix of length `depth + 1` it was found at that removes
 * what is there whatever the containers (`b["0"]` removes nothing of an array: {@link removesAlways}).
 */
const isRemovalAt = (entry: CompactionEntry, depth: number): boolean =>
  entry.op === "unset" && entry.path.length === depth + 1 && removesAlways(entry.path);

/** A path's node of the forward pass of {@link dropSuperseded}: the latest entries left at and below it. */
interface HeldNode {
  children: Map<string, HeldNode> | undefined;
  /** The latest removal left in the log at this path (-1: none): it may have taken the value away. */
  unset: number;
  /** The latest removal left at this path that surely removed what was there ({@link removesAlways}). */
  removed: number;
  /** The latest entry left in the log at this path, of any kind (-1: none). */
  any: number;
  /** The latest write left in the log at or below this path (-1: none): it made the path hold a value. */
  built: number;
  /** Entries strictly below this path before this index go with a write dropped at it (-1: none). */
  dropBelowUntil: number;
}

const newHeldNode = (): HeldNode => ({
  children: undefined,
  unset: -1,
  removed: -1,
  any: -1,
  built: -1,
  dropBelowUntil: -1,
});

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
 * Drops, in one forward pass over the log left, writes that change nothing anything sees — each with the
 * entries strictly below the path it changed, up to what undoes it (they only walk into what it wrote):
 * - *Superseded:* a write nothing sees before its cover (`unseenUntil`: no entry at its path or above
 *   comes between) whose path already holds a value where it applies — it creates no container, no key
 *   and no array index, and its cover replaces or removes what it and the entries below it did. Without
 *   this, a thread overwriting a nested path each run (`a.b`) kept one stand-in per run, and one alternating
 *   `set a.b` and `set a.b.c` kept every value of `a.b` (`set a.b.c` walks into it).
 * - *Created and removed:* a write that creates an object's key whose first later entry at that key or
 *   above is an `unset` of that very key — which goes too: the object is back as it was, its other keys in
 *   their order. The key is known absent where the write applies, in an object that holds a value, when it
 *   was removed with nothing at, above or below it since, or when nothing was written at or below it since
 *   the last entry at the object or above, which is a removal of all of it (or there is none: the object's
 *   keys all come from writes below it). Without this, a nested value written and evicted every run (`x.y`
 *   or a new `x.t<n>` beside a sibling that stays, or `p.x.y` whose eviction also removes the parent `p.x`
 *   it made) kept a stand-in and a removal per run.
 * A path "holds a value" when a write left at or below it comes after every removal at it and every entry
 * above it (any of which may have taken it away). Answers whether anything was dropped.
 */
function dropSuperseded(
  entries: readonly CompactionEntry[],
  fates: EntryFate[],
  unseenUntil: readonly number[],
  removals: ReadonlyMap<number, readonly number[]>,
): boolean {
  const root = newHeldNode();
  const trail: HeldNode[] = [];
  let dropped = false;
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] as CompactionEntry;
    if (fates[index] === "drop" || entry.op === "reset") continue;
    const path = entry.path;
    if (path.length === 0) continue;
    let node = root;
    let above = -1; // the latest entry left strictly above the prefix being looked at
    let holds = true; // every prefix so far holds a value where this entry applies
    let created = -1; // the depth of the key this write creates, when known to be absent (-1: none known)
    let inside = false;
    for (let depth = 0; depth < path.length; depth++) {
      node = childAt(node, String(path[depth]), newHeldNode);
      trail[depth] = node;
      if (depth < path.length - 1 && node.dropBelowUntil > index) {
        inside = true;
        break;
      }
      if (holds && node.built <= Math.max(node.unset, above)) {
        holds = false;
        if (typeof path[depth] === "string" && (node.removed > above || madeBelow(entries, above)))
          created = depth; // the key is absent (see dropSuperseded)
      }
      if (node.any > above) above = node.any;
    }
    if (inside) {
      fates[index] = "drop";
      dropped = true;
      continue;
    }
    if (entry.op !== "unset") {
      const until = holds ? unseenUntil[index] : created > 0 ? removalAt(removals, index, created) : NONE;
      if (until !== undefined && until !== NONE && fates[until] !== "drop") {
        fates[index] = "drop";
        if (!holds) fates[until] = "drop"; // the removal of the key it created
        const at = trail[holds ? path.length - 1 : created] as HeldNode;
        if (until > at.dropBelowUntil) at.dropBelowUntil = until;
        dropped = true;
        continue;
      }
    }
    if (entry.op !== "unset")
      for (let depth = 0; depth < path.length; depth++) (trail[depth] as HeldNode).built = index;
    node.any = index;
    if (entry.op === "unset") {
      node.unset = index;
      if (removesAlways(path)) node.removed = index;
    }
  }
  return dropped;
}

/**
 * True when a parent's keys all come from writes below it: `above`, the latest entry left at it or above it,
 * is none or a removal of all of it, so only writes below it have made it since. Then a key of it nothing
 * was written at or below since is absent.
 */
function madeBelow(entries: readonly CompactionEntry[], above: number): boolean {
  if (above === -1) return true;
  const entry = entries[above] as CompactionEntry;
  return entry.op === "unset" && removesAlways(entry.path);
}

/** The removal of the prefix of `depth + 1` segments that first follows write `index` there or above. */
function removalAt(removals: ReadonlyMap<number, readonly number[]>, index: number, depth: number): number {
  const found = removals.get(index);
  if (found !== undefined)
    for (let at = 0; at < found.length; at += 2) if (found[at] === depth) return found[at + 1] as number;
  return NONE;
}

/** The stand-in of a value no longer kept: `{}`, `[]` or `null`, as the value is an object, an array or not. */
export function standIn(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return EMPTY_ARRAY;
  return value !== null && typeof value === "object" ? EMPTY_OBJECT : null;
}

const EMPTY_ARRAY: JsonValue = Object.freeze([]) as unknown as JsonValue;
const EMPTY_OBJECT: JsonValue = Object.freeze({}) as JsonValue;
