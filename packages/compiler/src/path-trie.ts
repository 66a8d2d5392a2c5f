/** The trie nodes of `PathIndex` and their keys. */
import type { PathSegment } from "@obelisk/core";

/** The key of a negative index (reads only): it overlaps any index at its position. */
export const ANY_INDEX = "\u0000*";

/**
 * One trie node; `children` and `entries` are created on first use (most nodes need only one of them).
 * The first child is held inline (`onlyKey`, `onlyChild`): most nodes have one, and a Map costs ~190
 * bytes that live as long as the compiled plan. `children` holds every child once there are two.
 * Likewise the first entry (`first`; most paths have one writer): `entries` holds the later ones.
 * A child that would hold one entry and nothing below it (most do: `†state.n<i>` under `†state`) is that
 * entry itself, not a node around it (a `TrieChild`; 80 bytes per written or read path while the compile
 * runs); it becomes a node when a second entry or a child is added at its path.
 */
export class TrieNode<T> {
  onlyKey: string | undefined = undefined;
  onlyChild: TrieChild<T> | undefined = undefined;
  children: Map<string, TrieChild<T>> | undefined = undefined;
  first: T | undefined = undefined;
  entries: T[] | undefined = undefined;
  /** The first entry stored strictly below this node. */
  firstBelow: T | undefined = undefined;
  /** The first entry of this node for which the index's `flag` holds. */
  firstFlagged: T | undefined = undefined;
}

/** A child in the trie: a node, or a leaf (the one entry stored at its path, with nothing below it). */
export type TrieChild<T> = TrieNode<T> | T;

/** True when a child is a node (else it is a leaf: an entry; entries are never `TrieNode`s). */
export function isNode<T>(child: TrieChild<T>): child is TrieNode<T> {
  return child instanceof TrieNode;
}

/** The child of `node` under `key`, if any. */
export function childOf<T>(node: TrieNode<T>, key: string): TrieChild<T> | undefined {
  if (node.children !== undefined) return node.children.get(key);
  return node.onlyKey === key ? node.onlyChild : undefined;
}

/** Puts `child` under `key` (a new key, or replacing that key's child). */
function setChild<T>(node: TrieNode<T>, key: string, child: TrieChild<T>): void {
  const children = node.children;
  if (children !== undefined) {
    children.set(key, child);
    return;
  }
  if (node.onlyChild === undefined || node.onlyKey === key) {
    node.onlyKey = key;
    node.onlyChild = child;
    return;
  }
  node.children = new Map<string, TrieChild<T>>([
    [node.onlyKey as string, node.onlyChild],
    [key, child],
  ]);
  node.onlyKey = undefined;
  node.onlyChild = undefined;
}

/** The node of a leaf entry (`flagged`: whether the index's `flag` holds for it). */
function nodeOfLeaf<T>(entry: T, flagged: boolean): TrieNode<T> {
  const node = new TrieNode<T>();
  node.first = entry;
  if (flagged) node.firstFlagged = entry;
  return node;
}

/** The child node of `node` under `key`, created when missing, or made from a leaf there. */
export function childFor<T>(node: TrieNode<T>, key: string, flag: (entry: T) => boolean): TrieNode<T> {
  const child = childOf(node, key);
  if (child !== undefined && isNode(child)) return child;
  const made = child === undefined ? new TrieNode<T>() : nodeOfLeaf(child, flag(child));
  setChild(node, key, made);
  return made;
}

/**
 * Stores `entry` at the child of `node` under `key`: as a leaf when there is no child there, else as
 * an entry of the child node (made from the leaf there, if one is).
 */
export function addAtChild<T>(node: TrieNode<T>, key: string, entry: T, flag: (entry: T) => boolean): void {
  if (childOf(node, key) === undefined) {
    setChild(node, key, entry);
    return;
  }
  addEntry(childFor(node, key, flag), entry, flag);
}

/** Stores `entry` at `node` itself. */
export function addEntry<T>(node: TrieNode<T>, entry: T, flag: (entry: T) => boolean): void {
  if (node.first === undefined) node.first = entry;
  else if (node.entries === undefined) node.entries = [entry];
  else node.entries.push(entry);
  if (node.firstFlagged === undefined && flag(entry)) node.firstFlagged = entry;
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
