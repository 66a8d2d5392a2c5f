import type { Path, PathSegment } from "@obelisk/core";

/**
 * A node; children are keyed by the segment itself (a Map tells the index `0` from the key `"0"`). A child
 * that is a leaf (a variable's own path with nothing below it: most of them) is its reference text itself,
 * not a node: one object less per variable (stop 37). Its Map is created with its first child.
 */
interface TrieNode {
  children: Map<PathSegment, TrieChild> | undefined;
  reference: string | undefined;
}

/** A node's child: a node, or the reference of a leaf. */
type TrieChild = TrieNode | string;

const NONE: readonly string[] = Object.freeze([]);

/** What {@link PathTrie.find} answers when nothing is recorded at, above or below a path. */
export const ABSENT: unique symbol = Symbol("absent");

/** The node of a child, making a leaf a node (its reference kept) in its parent first. */
function nodeOf(parent: TrieNode, segment: PathSegment): TrieNode {
  const child = parent.children?.get(segment);
  if (typeof child === "object") return child;
  const node: TrieNode = { children: undefined, reference: child };
  parent.children ??= new Map();
  parent.children.set(segment, node);
  return node;
}

/** True when a node holds nothing (no reference, no children): its parent drops it. */
function isEmpty(node: TrieNode): boolean {
  return node.reference === undefined && (node.children?.size ?? 0) === 0;
}

/**
 * Index of variable paths (or of any references by path, e.g. the memory store's tombstones): finds the
 * variables above and below a path in O(depth) / O(subtree).
 */
export class PathTrie {
  private readonly root: TrieNode = { children: undefined, reference: undefined };

  /** Records that `path` holds the variable `reference`. */
  set(path: Path, reference: string): void {
    if (path.length === 0) {
      this.root.reference = reference;
      return;
    }
    let node = this.root;
    const last = path.length - 1;
    for (let index = 0; index < last; index++) node = nodeOf(node, path[index] as PathSegment);
    const segment = path[last] as PathSegment;
    const child = node.children?.get(segment);
    if (typeof child === "object") child.reference = reference;
    else {
      node.children ??= new Map();
      node.children.set(segment, reference);
    }
  }

  /** Forgets the variable at `path` (prunes empty nodes). */
  delete(path: Path): void {
    if (path.length === 0) {
      this.root.reference = undefined;
      return;
    }
    const trail: TrieNode[] = [this.root];
    let node = this.root;
    const last = path.length - 1;
    for (let index = 0; index < last; index++) {
      const child = node.children?.get(path[index] as PathSegment);
      if (typeof child !== "object") return; // nothing, or a leaf above the path: nothing at it
      trail.push(child);
      node = child;
    }
    const segment = path[last] as PathSegment;
    const child = node.children?.get(segment);
    if (child === undefined) return;
    if (typeof child === "object") {
      child.reference = undefined;
      if (!isEmpty(child)) return;
    }
    node.children?.delete(segment);
    this.prune(trail, path);
  }

  /**
   * Drops the empty nodes of a walk's `trail` (the nodes at the prefixes of `path` of lengths 0 to
   * `trail.length - 1`), deepest first, up to the first one that holds something.
   */
  private prune(trail: readonly TrieNode[], path: Path): void {
    for (let index = trail.length - 1; index > 0; index--) {
      if (!isEmpty(trail[index] as TrieNode)) return;
      (trail[index - 1] as TrieNode).children?.delete(path[index - 1] as PathSegment);
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
    let node = this.root;
    for (let index = 0; index <= path.length; index++) {
      if (node.reference !== undefined) {
        if (found === undefined) found = [node.reference];
        else found.push(node.reference);
        node.reference = undefined;
      }
      if (index === path.length) break;
      const segment = path[index] as PathSegment;
      const child = node.children?.get(segment);
      if (child === undefined) break;
      if (typeof child === "string") {
        // a leaf at this prefix (or at the path itself): taken, nothing below it
        if (found === undefined) found = [child];
        else found.push(child);
        node.children?.delete(segment);
        break;
      }
      trail.push(child);
      node = child;
    }
    if (found === undefined) return NONE;
    this.prune(trail, path);
    return found;
  }

  /**
   * {@link referenceAt}, or {@link ABSENT} when nothing is recorded at, above or below `path` (then
   * {@link isolated} is true too): what a commit asks of each written path, in one walk.
   */
  find(path: Path): string | undefined | typeof ABSENT {
    let node = this.root;
    let above = false;
    const last = path.length - 1;
    for (let index = 0; index <= last; index++) {
      if (node.reference !== undefined) above = true;
      const child = node.children?.get(path[index] as PathSegment);
      if (child === undefined) return above ? undefined : ABSENT;
      // a leaf: the variable at the path, or one above it (nothing at the path then)
      if (typeof child === "string") return index === last ? child : undefined;
      node = child;
    }
    return node.reference;
  }

  /** The reference of the variable at exactly `path`, if any. */
  referenceAt(path: Path): string | undefined {
    let node = this.root;
    const last = path.length - 1;
    for (let index = 0; index <= last; index++) {
      const child = node.children?.get(path[index] as PathSegment);
      if (typeof child !== "object") return index === last ? child : undefined;
      node = child;
    }
    return node.reference;
  }

  /**
   * True when no variable is strictly above `path` and nothing is recorded below it: {@link ancestors} and
   * {@link descendants} would both answer none (one walk, no allocation). A node below `path` that holds
   * no reference answers false, though `descendants` would find nothing there (delete prunes such nodes).
   */
  isolated(path: Path): boolean {
    let node = this.root;
    const last = path.length - 1;
    for (let index = 0; index <= last; index++) {
      if (node.reference !== undefined) return false;
      const child = node.children?.get(path[index] as PathSegment);
      if (child === undefined) return true;
      // a leaf at the path has nothing below it; one above it is a variable above
      if (typeof child === "string") return index === last;
      node = child;
    }
    return node.children === undefined || node.children.size === 0;
  }

  /** References of variables at strict prefixes of `path`, outermost first (shared empty array: none). */
  ancestors(path: Path): readonly string[] {
    let found: string[] | undefined;
    let node = this.root;
    // the prefixes of lengths 0 to path.length - 1: the node at the path itself is never looked up
    for (let index = 0; index < path.length; index++) {
      if (node.reference !== undefined) {
        if (found === undefined) found = [node.reference];
        else found.push(node.reference);
      }
      if (index === path.length - 1) break;
      const child = node.children?.get(path[index] as PathSegment);
      if (child === undefined) break;
      if (typeof child === "string") {
        // a leaf at a strict prefix: the innermost one, nothing below it
        if (found === undefined) found = [child];
        else found.push(child);
        break;
      }
      node = child;
    }
    return found ?? NONE;
  }

  /** References of variables strictly below `path` (shared empty array: none). */
  descendants(path: Path): readonly string[] {
    let node = this.root;
    for (let index = 0; index < path.length; index++) {
      const child = node.children?.get(path[index] as PathSegment);
      // nothing there, or a leaf at or above the path: nothing below it
      if (typeof child !== "object") return NONE;
      node = child;
    }
    if (node.children === undefined || node.children.size === 0) return NONE;
    const found: string[] = [];
    const stack: TrieChild[] = [...node.children.values()];
    while (stack.length > 0) {
      const current = stack.pop() as TrieChild;
      if (typeof current === "string") {
        found.push(current);
        continue;
      }
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
