/** The trie nodes of `PathIndex` and their keys. */
import type { PathSegment } from "@obelisk/core";

/** The key of a negative index (reads only): it overlaps any index at its position. */
export const ANY_INDEX = "\u0000*";

/**
 * One trie node; `children` and `entries` are created on first use (most nodes need only one of them).
 * The first child is held inline (`onlyKey`, `onlyChild`): most nodes have one, and a Map costs ~190
 * bytes that live as long as the compiled plan. `children` holds every child once there are two.
 * Likewise the first entry (`first`; most paths have one writer): `entries` holds the later ones.
 */
export class TrieNode<T> {
  onlyKey: string | undefined = undefined;
  onlyChild: TrieNode<T> | undefined = undefined;
  children: Map<string, TrieNode<T>> | undefined = undefined;
  first: T | undefined = undefined;
  entries: T[] | undefined = undefined;
  /** The first entry stored strictly below this node. */
  firstBelow: T | undefined = undefined;
  /** The first entry of this node for which the index's `flag` holds. */
  firstFlagged: T | undefined = undefined;
}

/** The child of `node` under `key`, if any. */
export function childOf<T>(node: TrieNode<T>, key: string): TrieNode<T> | undefined {
  if (node.children !== undefined) return node.children.get(key);
  return node.onlyKey === key ? node.onlyChild : undefined;
}

/** The child of `node` under `key`, created when missing. */
export function childFor<T>(node: TrieNode<T>, key: string): TrieNode<T> {
  let children = node.children;
  if (children === undefined) {
    if (node.onlyChild === undefined) {
      const child = new TrieNode<T>();
      node.onlyKey = key;
      node.onlyChild = child;
      return child;
    }
    if (node.onlyKey === key) return node.onlyChild;
    children = new Map([[node.onlyKey as string, node.onlyChild]]);
    node.children = children;
    node.onlyKey = undefined;
    node.onlyChild = undefined;
  }
  let child = children.get(key);
  if (child === undefined) {
    child = new TrieNode<T>();
    children.set(key, child);
  }
  return child;
}

const INDEX_KEYS: string[] = [];

/** Object keys and array indices share one key space (`items[0]` and `items["0"]` overlap, conservatively). */
export function keyOf(segment: PathSegment): string {
  if (typeof segment === "string") return segment;
  if (segment < 0) return ANY_INDEX;
  if (segment < 1024 && (segment | 0) === segment) {
    let key = INDEX_KEYS[segment];
    if (key === undefined) {
      key = String(segment);
      INDEX_KEYS[segment] = key;
    }
    return key;
  }
  return String(segment);
}
