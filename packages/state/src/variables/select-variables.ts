import type { Reference } from "@obelisk/core";
import { DEFAULT_KINDS, parseReference } from "@obelisk/core";
import type { VariableMeta } from "../store-types.js";
import { ANY_DEPTH } from "./parse-stored-reference.js";

/** The variables a list of references selects, and the references that select none (their text, in order). */
export interface Selection {
  readonly chosen: VariableMeta[];
  readonly notFound: string[];
}

/**
 * A node of the wanted references' trie, one per kind: children keyed by a segment's text (`[0]` and `.0`
 * are one key). Every node is on the path of some wanted reference, so each has one at or below it.
 */
interface WantedNode {
  readonly children: Map<string, WantedNode>;
  /** Indexes (in the wanted list) of the references that end here. */
  readonly here: number[];
  /** Those of `here` are marked found. */
  hereFound: boolean;
  /** Every reference at or below this node is marked found. */
  settled: boolean;
}

const newNode = (): WantedNode => ({ children: new Map(), here: [], hereFound: false, settled: false });

/** The trie of the wanted references, one root per kind. */
function index(wanted: readonly Reference[]): Map<string, WantedNode> {
  const roots = new Map<string, WantedNode>();
  for (let at = 0; at < wanted.length; at++) {
    const { kind, path } = wanted[at] as Reference;
    let node: WantedNode = roots.get(kind) ?? newNode();
    roots.set(kind, node);
    for (let depth = 0; depth < path.length; depth++) {
      const key = String(path[depth]);
      let child: WantedNode | undefined = node.children.get(key);
      if (child === undefined) {
        child = newNode();
        node.children.set(key, child);
      }
      node = child;
    }
    node.here.push(at);
  }
  return roots;
}

/** Marks the references ending at `node` found (once). */
function markHere(node: WantedNode, found: boolean[]): void {
  if (node.hereFound) return;
  node.hereFound = true;
  for (const at of node.here) found[at] = true;
}

/** Marks every reference at or below `node` found (each node once over the whole selection). */
function settle(node: WantedNode, found: boolean[]): void {
  const stack = [node];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (next.settled) continue;
    next.settled = true;
    markHere(next, found);
    for (const child of next.children.values()) stack.push(child);
  }
}

/**
 * The variables (in their order) a list of references selects: each reference selects the variables at
 * it, under it (`†state.sales` selects `†state.sales.all`) and the one holding it (`†state.sales.all[0]`
 * selects `†state.sales.all`); segments are compared as text. A reference that selects nothing is not
 * found. In O(variables × depth + wanted segments): each variable walks the wanted references' trie along
 * its own path (the references it passes hold it; those at or below its end are under it).
 */
export function selectVariables(all: readonly VariableMeta[], wanted: readonly Reference[]): Selection {
  const roots = index(wanted);
  const found = new Array<boolean>(wanted.length).fill(false);
  const chosen: VariableMeta[] = [];
  for (const meta of all) {
    // the store formatted it: any depth (a variable written under a raised maxPathDepth is still listed)
    const parsed = parseReference(meta.reference, DEFAULT_KINDS, ANY_DEPTH);
    if (!parsed.ok) continue;
    const { kind, path } = parsed.value;
    let node = roots.get(kind);
    let selected = false;
    for (let depth = 0; node !== undefined; depth++) {
      if (node.here.length > 0) {
        markHere(node, found);
        selected = true;
      }
      if (depth === path.length) {
        // the references at or below the variable's own path (there is one at least)
        settle(node, found);
        selected = true;
        break;
      }
      node = node.children.get(String(path[depth]));
    }
    if (selected) chosen.push(meta);
  }
  const notFound: string[] = [];
  for (let at = 0; at < wanted.length; at++) if (!found[at]) notFound.push((wanted[at] as Reference).text);
  return { chosen, notFound };
}
