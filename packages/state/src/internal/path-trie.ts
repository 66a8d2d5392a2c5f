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
const NO_SEGMENTS: readonly PathSegment[] = Object.freeze([]);

/** Adds a new child to a node that has none at `segment`, and answers it. */
function addChild(node: TrieNode, segment: PathSegment): TrieNode {
  const child = newNode();
  node.children ??= new Map();
  node.children.set(segment, child);
  return child;
}

/** What {@link PathTrie.find} answers when nothing is recorded at, above or below a path. */
export const ABSENT: unique symbol = Symbol("absent");

/**
 * Index of variable paths (or of any references by path, e.g. the memory store's tombstones): finds the
 * variables above and below a path in O(depth) / O(subtree).
 */
export class PathTrie {
  private readonly root: TrieNode = newNode();
  /** Counts the changes of the trie: a remembered miss of {@link find} holds while this is unchanged. */
  private changes = 0;
  /**
   * What {@link find} last answered {@link ABSENT} for: the node its walk stopped at, the depth and segment
   * of the child that node lacks, the segments above it (empty at depth 0) and {@link changes} then. A
   * commit's `set` of a new variable at a path through that missing child starts there instead of looking
   * the segments up again (in a node of 100,000 top-level keys, a lookup that misses the CPU cache).
   */
  private missNode: TrieNode = this.root;
  private missDepth = 0;
  private missSegment: PathSegment | undefined;
  private missAbove: readonly PathSegment[] = NO_SEGMENTS;
  private missChanges = -1;

  /** Records that `path` holds the variable `reference`. */
  set(path: Path, reference: string): void {
    let node = this.root;
    if (this.missChanges === this.changes && this.throughMiss(path)) {
      // nothing changed since `find` missed on this path: the segments from `missDepth` on are not there
      node = this.missNode;
      for (let index = this.missDepth; index < path.length; index++)
        node = addChild(node, path[index] as PathSegment);
    } else
      for (let index = 0; index < path.length; index++) {
        const segment = path[index] as PathSegment;
        node = node.children?.get(segment) ?? addChild(node, segment);
      }
    node.reference = reference;
    this.changes++;
  }

  /** True when `path` goes through the child {@link find} last found missing. */
  private throughMiss(path: Path): boolean {
    const depth = this.missDepth;
    if (path.length <= depth || path[depth] !== this.missSegment) return false;
    const above = this.missAbove;
    for (let index = 0; index < depth; index++) if (path[index] !== above[index]) return false;
    return true;
  }

  /** Forgets the variable at `path` (prunes empty nodes). */
  delete(path: Path): void {
    this.changes++;
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
    this.changes++;
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
    let node: TrieNode = this.root;
    let above = false;
    for (let index = 0; index < path.length; index++) {
      if (node.reference !== undefined) above = true;
      const child = node.children?.get(path[index] as PathSegment);
      if (child === undefined) {
        if (above) return undefined;
        this.missNode = node;
        this.missDepth = index;
        this.missSegment = path[index];
        this.missAbove = index === 0 ? NO_SEGMENTS : path.slice(0, index);
        this.missChanges = this.changes;
        return ABSENT;
      }
      node = child;
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
    this.changes++;
    this.root.children = undefined;
    this.root.reference = undefined;
  }
}
