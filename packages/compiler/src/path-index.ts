import type { Path, PathSegment } from "@obelisk/core";

const ANY_INDEX = "\u0000*";

interface TrieNode<T> {
  readonly children: Map<string, TrieNode<T>>;
  readonly entries: T[];
  /** The first entry stored strictly below this node. */
  firstBelow?: T;
  /** The first entry of this node for which the index's `flag` holds. */
  firstFlagged?: T;
}

/** How the entries found by `overlapping` relate to the queried path. */
export type Overlap = "ancestor" | "equal" | "descendant";

/** A hit of `PathIndex.overlapping`. */
export interface OverlapHit<T> {
  /** The stored entry. */
  readonly entry: T;
  /** The stored path's relation to the queried path. */
  readonly relation: Overlap;
}

/** Object keys and array indices share one key space (`items[0]` and `items["0"]` overlap, conservatively). */
function keyOf(segment: PathSegment): string {
  if (typeof segment === "number" && segment < 0) return ANY_INDEX;
  return String(segment);
}

function newNode<T>(): TrieNode<T> {
  return { children: new Map(), entries: [] };
}

/**
 * An index of paths by kind, as a trie of path segments: finds every stored path that overlaps a query
 * (equal, or one a prefix of the other) in time proportional to the path length plus the hits,
 * never by pairwise comparison. A negative index (reads only) overlaps any index at its position.
 */
export class PathIndex<T> {
  readonly #roots = new Map<string, TrieNode<T>>();

  /** `flag` marks entries that `firstCandidates` reports at an equal path (default: none). */
  constructor(readonly flag: (entry: T) => boolean = () => false) {}

  /** Stores `entry` under `kind` + `path`. */
  add(kind: string, path: Path, entry: T): void {
    let node: TrieNode<T> | undefined = this.#roots.get(kind);
    if (node === undefined) {
      node = newNode<T>();
      this.#roots.set(kind, node);
    }
    for (const segment of path) {
      if (node.firstBelow === undefined) node.firstBelow = entry;
      const key = keyOf(segment);
      let child: TrieNode<T> | undefined = node.children.get(key);
      if (child === undefined) {
        child = newNode<T>();
        node.children.set(key, child);
      }
      node = child;
    }
    node.entries.push(entry);
    if (node.firstFlagged === undefined && this.flag(entry)) node.firstFlagged = entry;
  }

  /** True when some stored path overlaps `kind` + `path` (stops at the first hit). */
  hasOverlap(kind: string, path: Path): boolean {
    const root = this.#roots.get(kind);
    return root !== undefined && hasOverlapFrom(root, path, 0);
  }

  /**
   * The first-stored entry of each overlapping group, in O(path length): the first entry of every
   * ancestor node, the first entry at the equal node (or its first flagged one when `flaggedOnly`), and
   * the first entry stored below it. For write paths (no negative index).
   */
  firstCandidates(kind: string, path: Path, flaggedOnly: boolean): OverlapHit<T>[] {
    const hits: OverlapHit<T>[] = [];
    let node = this.#roots.get(kind);
    for (let depth = 0; node !== undefined && depth < path.length; depth++) {
      const first = node.entries[0];
      if (first !== undefined) hits.push({ entry: first, relation: "ancestor" });
      node = node.children.get(keyOf(path[depth] as PathSegment));
    }
    if (node === undefined) return hits;
    const equal = flaggedOnly ? node.firstFlagged : node.entries[0];
    if (equal !== undefined) hits.push({ entry: equal, relation: "equal" });
    if (node.firstBelow !== undefined) hits.push({ entry: node.firstBelow, relation: "descendant" });
    return hits;
  }

  /** Every stored entry whose path overlaps `kind` + `path`. */
  overlapping(kind: string, path: Path): OverlapHit<T>[] {
    const root = this.#roots.get(kind);
    const hits: OverlapHit<T>[] = [];
    if (root !== undefined) this.#walk(root, path, 0, hits);
    return hits;
  }

  #walk(node: TrieNode<T>, path: Path, depth: number, hits: OverlapHit<T>[]): void {
    if (depth === path.length) {
      for (const entry of node.entries) hits.push({ entry, relation: "equal" });
      for (const child of node.children.values()) collectSubtree(child, hits);
      return;
    }
    for (const entry of node.entries) hits.push({ entry, relation: "ancestor" });
    const key = keyOf(path[depth] as PathSegment);
    if (key === ANY_INDEX) {
      for (const child of node.children.values()) this.#walk(child, path, depth + 1, hits);
      return;
    }
    const child = node.children.get(key);
    if (child !== undefined) this.#walk(child, path, depth + 1, hits);
    const wildcard = node.children.get(ANY_INDEX);
    if (wildcard !== undefined) this.#walk(wildcard, path, depth + 1, hits);
  }
}

function collectSubtree<T>(node: TrieNode<T>, hits: OverlapHit<T>[]): void {
  const stack = [node];
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    for (const entry of current.entries) hits.push({ entry, relation: "descendant" });
    for (const child of current.children.values()) stack.push(child);
  }
}

function hasOverlapFrom<T>(node: TrieNode<T>, path: Path, depth: number): boolean {
  if (node.entries.length > 0) return true;
  if (depth === path.length) return node.firstBelow !== undefined;
  const key = keyOf(path[depth] as PathSegment);
  if (key === ANY_INDEX) {
    for (const child of node.children.values()) if (hasOverlapFrom(child, path, depth + 1)) return true;
    return false;
  }
  const child = node.children.get(key);
  if (child !== undefined && hasOverlapFrom(child, path, depth + 1)) return true;
  const wildcard = node.children.get(ANY_INDEX);
  return wildcard !== undefined && hasOverlapFrom(wildcard, path, depth + 1);
}
