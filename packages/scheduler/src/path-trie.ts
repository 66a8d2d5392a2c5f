/**
 * A node of a {@link PathTrie}: the items filed at its path, and its children by segment — object keys,
 * non-negative indexes and negative indexes apart, because they overlap differently (`pathsOverlap`).
 */
interface TrieNode<T> {
  items: T[] | undefined;
  /** By object key. */
  keys: Children<T> | undefined;
  /** By non-negative index. */
  indexes: Children<T> | undefined;
  /** By negative index. */
  negatives: Children<T> | undefined;
}

type Segment = string | number;
type Children<T> = Map<Segment, TrieNode<T>>;

const newNode = <T>(): TrieNode<T> => ({
  items: undefined,
  keys: undefined,
  indexes: undefined,
  negatives: undefined,
});

/** The field of a node whose map a segment's child is filed in. */
const fieldFor = (segment: Segment): "keys" | "indexes" | "negatives" =>
  typeof segment === "string" ? "keys" : segment < 0 ? "negatives" : "indexes";

/** The map of a node's children a segment is filed in (made when missing). */
function mapFor<T>(node: TrieNode<T>, segment: Segment): Children<T> {
  const field = fieldFor(segment);
  const existing = node[field];
  if (existing !== undefined) return existing;
  const made: Children<T> = new Map();
  node[field] = made;
  return made;
}

/** The child a segment is filed under, if any. */
function childAt<T>(node: TrieNode<T>, segment: Segment): TrieNode<T> | undefined {
  return node[fieldFor(segment)]?.get(segment);
}

/** The index a key is the spelling of (`"3"` → 3), when it is one: an index and its spelling overlap. */
function spelledIndex(key: string): number | undefined {
  const index = Number(key);
  return Number.isInteger(index) && index >= 0 && String(index) === key ? index : undefined;
}

/**
 * Calls `visit` with each child whose segment overlaps `segment` as `pathsOverlap` decides: the same key or
 * index, an index and its spelling as a key (`0` and `"0"`), and a negative index with any index.
 */
function forEachOverlappingChild<T>(
  node: TrieNode<T>,
  segment: Segment,
  visit: (child: TrieNode<T>, map: Children<T>, at: Segment) => void,
): void {
  const { keys, indexes, negatives } = node;
  const each = (map: Children<T> | undefined): void => {
    if (map !== undefined) for (const [at, child] of map) visit(child, map, at);
  };
  const one = (map: Children<T> | undefined, at: Segment): void => {
    const child = map?.get(at);
    if (map !== undefined && child !== undefined) visit(child, map, at);
  };
  if (typeof segment === "string") {
    one(keys, segment);
    const index = spelledIndex(segment);
    if (index !== undefined) one(indexes, index);
    return;
  }
  if (segment >= 0) {
    one(indexes, segment);
    one(keys, String(segment));
  } else each(indexes);
  each(negatives);
}

/** Keeps `items[i]` for which `keep` answers true, in order; returns how many were dropped. */
function sweepItems<T>(node: TrieNode<T>, keep: (item: T) => boolean): number {
  const items = node.items;
  if (items === undefined) return 0;
  let kept = 0;
  for (let at = 0; at < items.length; at++) {
    const item = items[at] as T;
    if (keep(item)) items[kept++] = item;
  }
  const removed = items.length - kept;
  items.length = kept;
  if (kept === 0) node.items = undefined;
  return removed;
}

/** True when a node holds nothing and leads nowhere (its parent may drop it). */
function isEmpty<T>(node: TrieNode<T>): boolean {
  return (
    node.items === undefined &&
    (node.keys === undefined || node.keys.size === 0) &&
    (node.indexes === undefined || node.indexes.size === 0) &&
    (node.negatives === undefined || node.negatives.size === 0)
  );
}

/**
 * Items filed by a path (a kind and its segments), found by overlap as `pathsOverlap` decides: a path
 * overlaps another when one is a prefix of the other, segment by segment the same key or index, an index
 * and its spelling as a key, or a negative index and any index. A query costs the length of its path plus
 * the items it visits (and, for a negative index, the indexes filed beside it), not the number of items
 * filed: streaming's late claims, where each new writer looks only at the readers it may concern.
 */
export class PathTrie<T> {
  readonly #roots = new Map<string, TrieNode<T>>();
  #size = 0;

  /** Number of items filed. */
  get size(): number {
    return this.#size;
  }

  /** Removes every item. */
  clear(): void {
    this.#roots.clear();
    this.#size = 0;
  }

  /** Files `item` at `kind` + `path`. */
  add(kind: string, path: readonly Segment[], item: T): void {
    let node: TrieNode<T> | undefined = this.#roots.get(kind);
    if (node === undefined) {
      node = newNode<T>();
      this.#roots.set(kind, node);
    }
    for (const segment of path) {
      const map: Children<T> = mapFor(node, segment);
      let child: TrieNode<T> | undefined = map.get(segment);
      if (child === undefined) {
        child = newNode();
        map.set(segment, child);
      }
      node = child;
    }
    if (node.items === undefined) node.items = [item];
    else node.items.push(item);
    this.#size++;
  }

  /** Removes one filing of `item` at exactly `kind` + `path`; false when it is not there. */
  remove(kind: string, path: readonly Segment[], item: T): boolean {
    const chain: TrieNode<T>[] = [];
    let node = this.#roots.get(kind);
    for (let at = 0; node !== undefined && at < path.length; at++) {
      chain.push(node);
      node = childAt(node, path[at] as Segment);
    }
    const index = node?.items?.indexOf(item) ?? -1;
    if (node === undefined || index === -1) return false;
    (node.items as T[]).splice(index, 1);
    if (node.items?.length === 0) node.items = undefined;
    this.#size--;
    // drop the nodes left empty, deepest first
    for (let at = chain.length - 1; at >= 0 && isEmpty(node); at--) {
      const parent = chain[at] as TrieNode<T>;
      mapFor(parent, path[at] as Segment).delete(path[at] as Segment);
      node = parent;
    }
    if (isEmpty(node)) this.#roots.delete(kind);
    return true;
  }

  /**
   * Visits every item whose path overlaps `kind` + `path` (filed at a prefix of it, at it or below it)
   * and drops those `keep` answers false for. `keep` must not file or remove items itself.
   */
  sweepOverlapping(kind: string, path: readonly Segment[], keep: (item: T) => boolean): void {
    const root = this.#roots.get(kind);
    if (root === undefined) return;
    this.#sweepFrom(root, path, 0, keep);
    if (isEmpty(root)) this.#roots.delete(kind);
  }

  /** Sweeps the items of `node` (at `path[0, depth)`) that overlap `path`, dropping the nodes left empty. */
  #sweepFrom(node: TrieNode<T>, path: readonly Segment[], depth: number, keep: (item: T) => boolean): void {
    this.#size -= sweepItems(node, keep);
    const below = depth === path.length;
    const visit = (child: TrieNode<T>, map: Children<T>, at: Segment): void => {
      if (below) this.#sweepFrom(child, path, depth, keep);
      else this.#sweepFrom(child, path, depth + 1, keep);
      if (isEmpty(child)) map.delete(at);
    };
    // past the path's end every descendant overlaps it
    if (below) {
      for (const map of [node.keys, node.indexes, node.negatives])
        if (map !== undefined) for (const [at, child] of map) visit(child, map, at);
      return;
    }
    forEachOverlappingChild(node, path[depth] as Segment, visit);
  }
}
