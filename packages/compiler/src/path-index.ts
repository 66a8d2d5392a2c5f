import type { Path, PathSegment } from "@obelisk/core";

const ANY_INDEX = "\u0000*";

interface TrieNode<T> {
  readonly children: Map<string, TrieNode<T>>;
  readonly entries: T[];
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

  /** Stores `entry` under `kind` + `path`. */
  add(kind: string, path: Path, entry: T): void {
    let node: TrieNode<T> | undefined = this.#roots.get(kind);
    if (node === undefined) {
      node = newNode<T>();
      this.#roots.set(kind, node);
    }
    for (const segment of path) {
      const key = keyOf(segment);
      let child: TrieNode<T> | undefined = node.children.get(key);
      if (child === undefined) {
        child = newNode<T>();
        node.children.set(key, child);
      }
      node = child;
    }
    node.entries.push(entry);
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
