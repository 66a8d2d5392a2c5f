import type { Path, PathSegment } from "@obelisk/core";

/**
 * A node; children are keyed by the segment itself (a Map tells the index `0` from the key `"0"`). Most
 * nodes are leaves (a variable's own path): their Map is created with their first child.
 */
interface TrieNode {
  children: Map<PathSegment, TrieNode> | undefined;
  reference: string | undefined;
}

const newNode = (): TrieNode => ({ children: undefined, reference: undefined });
const NONE: readonly string[] = Object.freeze([]);

/** What {@link PathTrie.find} answers when nothing is recorded at, above or below a path. */
export const ABSENT: unique symbol = Symbol("absent");

/**
 * Index of variable paths (or of any references by path, e.g. the memory store's tombstones): finds the
 * variables above and below a path in O(depth) / O(subtree).
 */
export class PathTrie {
  private readonly root: TrieNode = newNode();

  /** Records that `path` holds the variable `reference`. */
  set(path: Path, reference: string): void {
    let node = this.root;
    for (let index = 0; index < path.length; index++) {
      const segment = path[index] as PathSegment;
      let child = node.children?.get(segment);
      if (child === undefined) {
        child = newNode();
        node.children ??= new Map();
        node.children.set(segment, child);
      }
      node = child;
    }
    node.reference = reference;
  }

  /** Forgets the variable at `path` (prunes empty nodes). */
  delete(path: Path): void {
    const trail: TrieNode[] = [this.root];
    let node = this.root;
    for (const segment of path) {
      const child = node.children?.get(segment);
      if (child === undefined) return;
      trail.push(child);
      node = child;
    }
    node.reference = undefined;
    for (let index = path.length; index > 0; index--) {
      const current = trail[index]!;
      if (current.reference !== undefined || (current.children?.size ?? 0) > 0) return;
      trail[index - 1]!.children?.delete(path[index - 1]!);
    }
  }

  /**
   * Forgets the entries at `path` and at every prefix of it, and returns their references (a shared empty
   * array when there are none). O(depth).
   */
  takeAlong(path: Path): readonly string[] {
    // no state tombstone at all (only call outputs were evicted): nothing to walk or allocate
    if (this.root.reference === undefined && (this.root.children?.size ?? 0) === 0) return NONE;
    let found: string[] | undefined;
    const trail: TrieNode[] = [this.root];
    let node: TrieNode | undefined = this.root;
    for (let index = 0; index <= path.length; index++) {
      if (node.reference !== undefined) {
        if (found === undefined) found = [node.reference];
        else found.push(node.reference);
        node.reference = undefined;
      }
      if (index === path.length) break;
      node = node.children?.get(path[index] as PathSegment);
      if (node === undefined) break;
      trail.push(node);
    }
    if (found === undefined) return NONE;
    for (let index = trail.length - 1; index > 0; index--) {
      const current = trail[index]!;
      if (current.reference !== undefined || (current.children?.size ?? 0) > 0) break;
      trail[index - 1]!.children?.delete(path[index - 1]!);
    }
    return found;
  }

  /**
   * {@link referenceAt}, or {@link ABSENT} when nothing is recorded at, above or below `path` (then
   * {@link isolated} is true too): what a commit asks of each written path, in one walk.
   */
  find(path: Path): string | undefined | typeof ABSENT {
    let node: TrieNode | undefined = this.root;
    let above = false;
    for (let index = 0; index < path.length; index++) {
      if (node.reference !== undefined) above = true;
      node = node.children?.get(path[index] as PathSegment);
      if (node === undefined) return above ? undefined : ABSENT;
    }
    return node.reference;
  }

  /** The reference of the variable at exactly `path`, if any. */
  referenceAt(path: Path): string | undefined {
    let node: TrieNode | undefined = this.root;
    for (let index = 0; index < path.length; index++) {
      node = node.children?.get(path[index] as PathSegment);
      if (node === undefined) return undefined;
    }
    return node.reference;
  }

  /**
   * True when no variable is strictly above `path` and nothing is recorded below it: {@link ancestors} and
   * {@link descendants} would both answer none (one walk, no allocation). A node below `path` that holds
   * no reference answers false, though `descendants` would find nothing there (delete prunes such nodes).
   */
  isolated(path: Path): boolean {
    let node: TrieNode | undefined = this.root;
    for (let index = 0; index < path.length; index++) {
      if (node.reference !== undefined) return false;
      node = node.children?.get(path[index] as PathSegment);
      if (node === undefined) return true;
    }
    return node.children === undefined || node.children.size === 0;
  }

  /** References of variables at strict prefixes of `path`, outermost first (shared empty array: none). */
  ancestors(path: Path): readonly string[] {
    let found: string[] | undefined;
    let node: TrieNode | undefined = this.root;
    // the prefixes of lengths 0 to path.length - 1: the node at the path itself is never looked up
    for (let index = 0; index < path.length; index++) {
      if (node.reference !== undefined) {
        if (found === undefined) found = [node.reference];
        else found.push(node.reference);
      }
      if (index === path.length - 1) break;
      node = node.children?.get(path[index] as PathSegment);
      if (node === undefined) break;
    }
    return found ?? NONE;
  }

  /** References of variables strictly below `path` (shared empty array: none). */
  descendants(path: Path): readonly string[] {
    let node: TrieNode | undefined = this.root;
    for (let index = 0; index < path.length; index++) {
      node = node.children?.get(path[index] as PathSegment);
      if (node === undefined) return NONE;
    }
    if (node.children === undefined || node.children.size === 0) return NONE;
    const found: string[] = [];
    const stack = [...node.children.values()];
    while (stack.length > 0) {
      const current = stack.pop()!;
      if (current.reference !== undefined) found.push(current.reference);
      if (current.children !== undefined) for (const child of current.children.values()) stack.push(child);
    }
    return found;
  }

  /** Forgets everything. */
  clear(): void {
    this.root.children = undefined;
    this.root.reference = undefined;
  }
}
