import type { Path, PathSegment } from "@obelisk/core";
import {
  ANY_INDEX,
  addAtChild,
  addEntry,
  childFor,
  childOf,
  isNode,
  keyOf,
  type TrieChild,
  TrieNode,
} from "./path-trie.js";

/**
 * Trie nodes visited by the stored-state check's queries (`hasAboveOrFlaggedAt`, `hasAtOrAbove`,
 * `firstBelow`): a work count for tests, never reset by the index.
 */
export const pathQueryWork = { visits: 0 };

/**
 * An index of paths by kind, as a trie of path segments: finds every stored path that overlaps a query
 * (equal, or one a prefix of the other) in time proportional to the path length plus the hits,
 * never by pairwise comparison. A negative index (reads only) overlaps any index at its position.
 */
export class PathIndex<T> {
  readonly #roots = new Map<string, TrieNode<T>>();
  /**
   * True once a path with a negative index was stored: only then can a node have an any-index child, so
   * only then do queries look for one (a second, missing, lookup in a node's map per level otherwise).
   */
  #wildcards = false;

  /** `flag` marks entries that `earliestCandidate` considers at an equal path (default: none). */
  constructor(readonly flag: (entry: T) => boolean = () => false) {}

  /** Stores `entry` under `kind` + `path`. */
  add(kind: string, path: Path, entry: T): void {
    let node: TrieNode<T> | undefined = this.#roots.get(kind);
    if (node === undefined) {
      node = new TrieNode<T>();
      this.#roots.set(kind, node);
    }
    const last = path.length - 1;
    for (let depth = 0; depth <= last; depth++) {
      if (node.firstBelow === undefined) node.firstBelow = entry;
      const key = keyOf(path[depth] as PathSegment);
      if (key === ANY_INDEX) this.#wildcards = true;
      // the last segment's child is the entry itself while nothing else is stored there (see TrieChild)
      if (depth === last) {
        addAtChild(node, key, entry, this.flag);
        return;
      }
      node = childFor(node, key, this.flag);
    }
    addEntry(node, entry, this.flag);
  }

  /** True when some stored path overlaps `kind` + `path` (stops at the first hit). */
  hasOverlap(kind: string, path: Path): boolean {
    const root = this.#roots.get(kind);
    return root !== undefined && hasOverlapFrom(root, path, 0, this.#wildcards);
  }

  /**
   * The earliest (by `rank`, first seen on ties) of the first-stored entries of each overlapping group,
   * in O(path length): the first entry of every ancestor node, the first entry at the equal node (or its
   * first flagged one when `flaggedOnly`), and the first entry stored below it. For write paths (no
   * negative index).
   */
  earliestCandidate(
    kind: string,
    path: Path,
    flaggedOnly: boolean,
    rank: (entry: T) => number,
  ): T | undefined {
    let best: T | undefined;
    let child: TrieChild<T> | undefined = this.#roots.get(kind);
    for (let depth = 0; child !== undefined && depth < path.length; depth++) {
      if (!isNode(child)) return best === undefined || rank(child) < rank(best) ? child : best;
      const first = child.first;
      if (first !== undefined && (best === undefined || rank(first) < rank(best))) best = first;
      child = childOf(child, keyOf(path[depth] as PathSegment));
    }
    if (child === undefined) return best;
    if (!isNode(child)) {
      const leaf = flaggedOnly && !this.flag(child) ? undefined : child;
      return leaf !== undefined && (best === undefined || rank(leaf) < rank(best)) ? leaf : best;
    }
    const node = child;
    const equal = flaggedOnly ? node.firstFlagged : node.first;
    if (equal !== undefined && (best === undefined || rank(equal) < rank(best))) best = equal;
    const below = node.firstBelow;
    if (below !== undefined && (best === undefined || rank(below) < rank(best))) best = below;
    return best;
  }

  /**
   * True when an entry is stored at a proper prefix of `kind` + `path`, or an entry the index's `flag`
   * marks at it; O(path length) however many entries the path has. For write paths (no negative index).
   */
  hasAboveOrFlaggedAt(kind: string, path: Path): boolean {
    let node: TrieChild<T> | undefined = this.#roots.get(kind);
    for (let depth = 0; node !== undefined; depth++) {
      pathQueryWork.visits++;
      if (!isNode(node)) return depth < path.length || this.flag(node);
      if (depth === path.length) return node.firstFlagged !== undefined;
      if (node.first !== undefined) return true;
      node = childOf(node, keyOf(path[depth] as PathSegment));
    }
    return false;
  }

  /** True when an entry is stored at `kind` + `path` or at a prefix of it; O(path length). */
  hasAtOrAbove(kind: string, path: Path): boolean {
    let node: TrieChild<T> | undefined = this.#roots.get(kind);
    for (let depth = 0; node !== undefined; depth++) {
      pathQueryWork.visits++;
      if (!isNode(node) || node.first !== undefined) return true;
      if (depth === path.length) return false;
      node = childOf(node, keyOf(path[depth] as PathSegment));
    }
    return false;
  }

  /**
   * The first entry stored at exactly `kind` + `path` (the earliest when entries are added in plan order),
   * in O(path length). For write paths (no negative index).
   */
  firstAt(kind: string, path: Path): T | undefined {
    let node: TrieChild<T> | undefined = this.#roots.get(kind);
    for (let depth = 0; node !== undefined && depth < path.length; depth++) {
      if (!isNode(node)) return undefined;
      node = childOf(node, keyOf(path[depth] as PathSegment));
    }
    return node === undefined || !isNode(node) ? node : node.first;
  }

  /**
   * The first entry stored strictly below `kind` + `path` (the earliest when entries are added in plan
   * order), in O(path length) however many there are. For write paths (no negative index).
   */
  firstBelow(kind: string, path: Path): T | undefined {
    let node: TrieChild<T> | undefined = this.#roots.get(kind);
    for (let depth = 0; node !== undefined && depth < path.length; depth++) {
      pathQueryWork.visits++;
      if (!isNode(node)) return undefined;
      node = childOf(node, keyOf(path[depth] as PathSegment));
    }
    return node === undefined || !isNode(node) ? undefined : node.firstBelow;
  }

  /**
   * Adds to `out` the keys stored directly below `kind` + `path` (exact segments; array indices as
   * text, no any-index key) until `out` holds `max` names. For hints: never on the compile path.
   */
  childKeys(kind: string, path: Path, out: Set<string>, max: number): void {
    let node: TrieChild<T> | undefined = this.#roots.get(kind);
    for (let depth = 0; node !== undefined && isNode(node) && depth < path.length; depth++)
      node = childOf(node, keyOf(path[depth] as PathSegment));
    if (node === undefined || !isNode(node)) return;
    const keys = node.children?.keys() ?? (node.onlyKey === undefined ? [] : [node.onlyKey]);
    for (const key of keys) {
      if (out.size >= max) return;
      if (key !== ANY_INDEX) out.add(key);
    }
  }

  /**
   * Appends every stored entry whose path overlaps `kind` + `path` to `out` (ancestors first, then the
   * equal node, then its subtree) and returns `out`.
   */
  collectOverlapping(kind: string, path: Path, out: T[]): T[] {
    const root = this.#roots.get(kind);
    if (root !== undefined) walk(root, path, 0, out, this.#wildcards);
    return out;
  }
}

/** Appends the entries of one node, in the order they were stored. */
function pushAll<T>(node: TrieNode<T>, out: T[]): void {
  if (node.first === undefined) return;
  out.push(node.first);
  const entries = node.entries;
  if (entries !== undefined) for (let i = 0; i < entries.length; i++) out.push(entries[i] as T);
}

/** `wildcards`: whether the index holds any-index children at all (see PathIndex). */
function walk<T>(at: TrieChild<T>, path: Path, depth: number, out: T[], wildcards: boolean): void {
  if (!isNode(at)) {
    out.push(at);
    return;
  }
  const node = at;
  pushAll(node, out);
  const children = node.children;
  if (depth === path.length) {
    if (children !== undefined) for (const child of children.values()) collectSubtree(child, out);
    else if (node.onlyChild !== undefined) collectSubtree(node.onlyChild, out);
    return;
  }
  const key = keyOf(path[depth] as PathSegment);
  if (children === undefined) {
    const only = node.onlyChild;
    if (only !== undefined && (key === ANY_INDEX || node.onlyKey === key || node.onlyKey === ANY_INDEX))
      walk(only, path, depth + 1, out, wildcards);
    return;
  }
  if (key === ANY_INDEX) {
    for (const child of children.values()) walk(child, path, depth + 1, out, wildcards);
    return;
  }
  const child = children.get(key);
  if (child !== undefined) walk(child, path, depth + 1, out, wildcards);
  if (!wildcards) return;
  const wildcard = children.get(ANY_INDEX);
  if (wildcard !== undefined) walk(wildcard, path, depth + 1, out, wildcards);
}

function collectSubtree<T>(at: TrieChild<T>, out: T[]): void {
  if (!isNode(at)) {
    out.push(at);
    return;
  }
  const node = at;
  if (node.children === undefined) {
    pushAll(node, out);
    if (node.onlyChild !== undefined) collectSubtree(node.onlyChild, out);
    return;
  }
  const stack: TrieChild<T>[] = [node];
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    if (!isNode(current)) {
      out.push(current);
      continue;
    }
    pushAll(current, out);
    if (current.children !== undefined) for (const child of current.children.values()) stack.push(child);
    else if (current.onlyChild !== undefined) stack.push(current.onlyChild);
  }
}

function hasOverlapFrom<T>(at: TrieChild<T>, path: Path, depth: number, wildcards: boolean): boolean {
  if (!isNode(at)) return true;
  const node = at;
  if (node.first !== undefined) return true;
  if (depth === path.length) return node.firstBelow !== undefined;
  const key = keyOf(path[depth] as PathSegment);
  const children = node.children;
  if (children === undefined) {
    const only = node.onlyChild;
    return (
      only !== undefined &&
      (key === ANY_INDEX || node.onlyKey === key || node.onlyKey === ANY_INDEX) &&
      hasOverlapFrom(only, path, depth + 1, wildcards)
    );
  }
  if (key === ANY_INDEX) {
    for (const child of children.values()) if (hasOverlapFrom(child, path, depth + 1, wildcards)) return true;
    return false;
  }
  const child = children.get(key);
  if (child !== undefined && hasOverlapFrom(child, path, depth + 1, wildcards)) return true;
  if (!wildcards) return false;
  const wildcard = children.get(ANY_INDEX);
  return wildcard !== undefined && hasOverlapFrom(wildcard, path, depth + 1, wildcards);
}
