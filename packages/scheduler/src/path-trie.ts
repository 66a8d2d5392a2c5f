/** A node of a {@link PathTrie}: the items filed at its path, and its children by segment text. */
interface TrieNode<T> {
  items: T[] | undefined;
  children: Map<string, TrieNode<T>> | undefined;
}

/** Keeps `items[i]` for which `keep` answers true, in order; returns how many are left. */
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
  return node.items === undefined && (node.children === undefined || node.children.size === 0);
}

/**
 * Items filed by a path (a kind and its segments), found by overlap: a path overlaps another when one is
 * a prefix of the other, as a write and a read of the state do. A query costs the length of its path plus
 * the items it visits, not the number of items filed (streaming's late claims: each new writer looks only
 * at the readers it may concern). Segments are compared as text, so `0` and `"0"` share a node: a query
 * may visit an item that does not overlap, never miss one that does.
 */
export class PathTrie<T> {
  readonly #roots = new Map<string, TrieNode<T>>();
  #size = 0;

  /** Number of items filed. */
  get size(): number {
    return this.#size;
  }

  /** Files `item` at `kind` + `path`. */
  add(kind: string, path: readonly (string | number)[], item: T): void {
    let node = this.#roots.get(kind);
    if (node === undefined) {
      node = { items: undefined, children: undefined };
      this.#roots.set(kind, node);
    }
    for (let at = 0; at < path.length; at++) {
      const key = String(path[at]);
      node.children ??= new Map();
      let child: TrieNode<T> | undefined = node.children.get(key);
      if (child === undefined) {
        child = { items: undefined, children: undefined };
        node.children.set(key, child);
      }
      node = child;
    }
    if (node.items === undefined) node.items = [item];
    else node.items.push(item);
    this.#size++;
  }

  /** Removes one filing of `item` at `kind` + `path`; false when it is not there. */
  remove(kind: string, path: readonly (string | number)[], item: T): boolean {
    const chain = this.#chain(kind, path);
    const node = chain[chain.length - 1];
    if (chain.length !== path.length + 1 || node === undefined || node.items === undefined) return false;
    const index = node.items.indexOf(item);
    if (index === -1) return false;
    node.items.splice(index, 1);
    if (node.items.length === 0) node.items = undefined;
    this.#size--;
    this.#prune(kind, path, chain);
    return true;
  }

  /**
   * Visits every item whose path overlaps `kind` + `path` (filed at a prefix of it, at it, or below it)
   * and drops those `keep` answers false for. `keep` must not file or remove items itself.
   */
  sweepOverlapping(kind: string, path: readonly (string | number)[], keep: (item: T) => boolean): void {
    const chain = this.#chain(kind, path);
    if (chain.length === 0) return;
    const reached = chain.length === path.length + 1;
    // items filed at a strict prefix of the path (the last node of the chain is swept with its subtree)
    const prefixes = reached ? chain.length - 1 : chain.length;
    for (let at = 0; at < prefixes; at++) this.#size -= sweepItems(chain[at] as TrieNode<T>, keep);
    if (reached) this.#sweepSubtree(chain[chain.length - 1] as TrieNode<T>, keep);
    this.#prune(kind, path, chain);
  }

  /** The nodes from the kind's root along `path`, as far as they exist. */
  #chain(kind: string, path: readonly (string | number)[]): TrieNode<T>[] {
    let node = this.#roots.get(kind);
    const chain: TrieNode<T>[] = [];
    for (let at = 0; node !== undefined; at++) {
      chain.push(node);
      if (at === path.length) break;
      node = node.children?.get(String(path[at]));
    }
    return chain;
  }

  /** Sweeps a node's items and every descendant's, dropping the descendants left empty. */
  #sweepSubtree(node: TrieNode<T>, keep: (item: T) => boolean): void {
    this.#size -= sweepItems(node, keep);
    const children = node.children;
    if (children === undefined) return;
    for (const [key, child] of children) {
      this.#sweepSubtree(child, keep);
      if (isEmpty(child)) children.delete(key);
    }
  }

  /** Drops the empty nodes at the end of a chain (deepest first), and the kind's root when it is empty. */
  #prune(kind: string, path: readonly (string | number)[], chain: readonly TrieNode<T>[]): void {
    for (let at = chain.length - 1; at > 0; at--) {
      const node = chain[at] as TrieNode<T>;
      if (!isEmpty(node)) return;
      (chain[at - 1] as TrieNode<T>).children?.delete(String(path[at - 1]));
    }
    const root = chain[0];
    if (root !== undefined && isEmpty(root)) this.#roots.delete(kind);
  }
}
