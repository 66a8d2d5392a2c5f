import type { Reference } from "@obelisk/core";
import type { CallOperand, WriterLink } from "./compiled-plan.js";
import { stronglyConnected } from "./strongly-connected.js";
import type { TopologicalOrder } from "./topological-order.js";

/** A compiled call in the internal DAG. */
export interface DagNode {
  readonly id: string;
  readonly index: number;
  readonly cost: number;
  /** Position in the builder's `nodes` (plan order among compiled calls). */
  readonly position: number;
  /** Groups this call writes into (its successors are their readers); grown with `withOutGroup`. */
  outGroups: OutGroups;
  /**
   * The next accumulating co-writer of each path this call accumulates into: it commits only after this
   * one (see commit-order.ts). Counted by cycle detection only: not an edge of the graph, not in critical
   * paths. Grown with `appended`.
   */
  commitNext: DagNode[];
}

/**
 * The empty list every node's `outGroups` and every group's `readers` start as, shared: `appended` never
 * changes a list shorter than 4 (a new `[]` per call and per group was garbage at once, or kept for as
 * long as the compiled plan by calls that feed no group). Never push to it.
 */
export const NO_ITEMS: never[] = [];

/**
 * The groups a call writes into: none (`NO_ITEMS`), the one group itself (most writers' path is read
 * through one group: a list of one was 56 bytes and two objects for as long as the compile runs), or a
 * list of two or more. Read with `outGroupCount` and `outGroupAt`, grown with `withOutGroup`.
 */
export type OutGroups = WriterGroup | WriterGroup[];

/** The number of groups in `groups`. */
export function outGroupCount(groups: OutGroups): number {
  return Array.isArray(groups) ? groups.length : 1;
}

/** The group at `at` (below `outGroupCount`) in `groups`. */
export function outGroupAt(groups: OutGroups, at: number): WriterGroup {
  return Array.isArray(groups) ? (groups[at] as WriterGroup) : groups;
}

/** `groups` with `group` after the others (see `OutGroups`). */
export function withOutGroup(groups: OutGroups, group: WriterGroup): OutGroups {
  if (!Array.isArray(groups)) return [groups, group];
  return groups.length === 0 ? group : appended(groups, group);
}

/**
 * `list` with `item` at the end: a new exact-size list up to 4 items, `push` beyond. A list grown by push
 * from empty keeps room for 17 items, and these lists live as long as the compiled plan (most hold 1–3).
 */
export function appended<T>(list: T[], item: T): T[] {
  switch (list.length) {
    case 0:
      return [item];
    case 1:
      return [list[0] as T, item];
    case 2:
      return [list[0] as T, list[1] as T, item];
    case 3:
      return [list[0] as T, list[1] as T, list[2] as T, item];
    default:
      list.push(item);
      return list;
  }
}

/**
 * One shared list of in-plan writers of a reference text: a hub between its writers and its readers, so
 * W writers and R readers of one path cost W + R links, not W × R (bug B6). Every reader of the text that
 * does not itself write an overlapping path shares the same group; the first reader that does gets a
 * private group (`owner`) without itself; later ones (each in a cycle with the first) share one `cyclic`
 * group that lists them among its writers (decision 0042).
 */
export class WriterGroup implements CallOperand {
  // The builder's bookkeeping is in private fields: a group is also the `CallOperand` compiled calls list
  // (its `reference` and `links`), and deep equality or JSON of a compiled call must not walk the DAG.
  #readers: DagNode[] = NO_ITEMS;
  #soleWriters: ReadonlyMap<string, readonly WriterLink[]> | undefined = undefined;
  #soleOperands: readonly CallOperand[] | undefined = undefined;
  #longest = 0;
  #analysis = 0;

  /** The calls that read through this group, in the order they were added (grown with `appended`). */
  get readers(): DagNode[] {
    return this.#readers;
  }
  set readers(readers: DagNode[]) {
    this.#readers = readers;
  }

  /**
   * The `writers` map of a reader whose only operand reads through this (shared) group:
   * `{ reference.text → links }`, the same for every such reader, so they share it (see PlanBuilder).
   */
  get soleWriters(): ReadonlyMap<string, readonly WriterLink[]> | undefined {
    return this.#soleWriters;
  }
  set soleWriters(table: ReadonlyMap<string, readonly WriterLink[]> | undefined) {
    this.#soleWriters = table;
  }

  /** The `operands` of such a reader (`[this]`), shared by all of them as `soleWriters` is. */
  get soleOperands(): readonly CallOperand[] | undefined {
    return this.#soleOperands;
  }
  set soleOperands(operands: readonly CallOperand[] | undefined) {
    this.#soleOperands = operands;
  }

  /** Largest critical path among the readers, valid in the analysis numbered `analysis` (see analyzeDag). */
  get longest(): number {
    return this.#longest;
  }
  set longest(longest: number) {
    this.#longest = longest;
  }

  /** The analysis `longest` was computed in. */
  get analysis(): number {
    return this.#analysis;
  }
  set analysis(analysis: number) {
    this.#analysis = analysis;
  }

  constructor(
    /** The reference operand (its canonical text and path). */
    readonly reference: Reference,
    /** Writers in plan order; appended to as later writers arrive. Shared by reference with every reader. */
    readonly links: WriterLink[],
    /** The reader of a private group (it writes an overlapping path itself and must not depend on itself). */
    readonly owner: string | undefined,
    /**
     * Read by calls that write an overlapping path, after a first such call (which has a private group):
     * its links include its own readers, so the self-loops reader → group → reader are not cycles.
     */
    readonly cyclic = false,
  ) {}
}

/** The internal DAG: calls and writer groups as vertices, numbered; successors as index lists. */
interface Numbered {
  readonly ids: (string | undefined)[];
  readonly succ: number[][];
}

function numbered(nodes: readonly DagNode[]): Numbered {
  const ids: (string | undefined)[] = new Array(nodes.length);
  const succ: number[][] = new Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    ids[i] = (nodes[i] as DagNode).id;
    succ[i] = [];
  }
  const groupNumber = new Map<WriterGroup, number>();
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as DagNode;
    const groups = node.outGroups;
    for (let at = 0, count = outGroupCount(groups); at < count; at++) {
      const group = outGroupAt(groups, at);
      let g = groupNumber.get(group);
      if (g === undefined) {
        g = ids.length;
        groupNumber.set(group, g);
        ids.push(undefined);
        const readers = group.readers;
        const next: number[] = new Array(readers.length);
        for (let r = 0; r < readers.length; r++) next[r] = (readers[r] as DagNode).position;
        succ.push(next);
      }
      (succ[i] as number[]).push(g);
    }
  }
  return { ids, succ };
}

/** Remaining critical path of every vertex (its cost plus the largest among its successors'), O(V + E). */
function criticalPathValues(nodes: readonly DagNode[], { ids, succ }: Numbered): Float64Array {
  const value = new Float64Array(ids.length);
  const state = new Uint8Array(ids.length); // 0 new, 1 in progress, 2 done
  for (let root = 0; root < ids.length; root++) {
    if (state[root] !== 0) continue;
    const stack = [root];
    while (stack.length > 0) {
      const v = stack[stack.length - 1] as number;
      if (state[v] === 0) {
        state[v] = 1;
        for (const w of succ[v] as number[]) if (state[w] === 0) stack.push(w);
        continue;
      }
      stack.pop();
      if (state[v] === 2) continue;
      let longest = 0;
      for (const w of succ[v] as number[])
        if (state[w] === 2) longest = Math.max(longest, value[w] as number);
      value[v] = (v < nodes.length ? (nodes[v] as DagNode).cost : 0) + longest;
      state[v] = 2;
    }
  }
  return value;
}

/** Strongly connected components with more than one vertex (iterative Tarjan). */
function cyclicComponents({ succ }: Numbered): number[][] {
  return stronglyConnected(succ).filter((component) => component.length > 1);
}

/** Shortest path start → … → start inside `members` (BFS), as call ids (group vertices left out). */
function cycleFrom(graph: Numbered, start: number, members: ReadonlySet<number>): string[] {
  const previous = new Map<number, number>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head] as number;
    for (const w of graph.succ[v] as number[]) {
      if (!members.has(w)) continue;
      if (w === start) {
        const back: number[] = [];
        for (let at: number | undefined = v; at !== undefined && at !== start; at = previous.get(at))
          back.push(at);
        const calls = back
          .reverse()
          .flatMap((at) => (graph.ids[at] === undefined ? [] : [graph.ids[at] as string]));
        const id = graph.ids[start] as string;
        return [id, ...calls, id];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  const id = graph.ids[start] as string;
  return [id, id];
}

/** Number of the latest `analyzeDag` (tags the group values it computed). */
let analyses = 0;

/** What the plan-wide DAG passes give: every cycle, and every call's critical path. */
export interface DagAnalysis {
  /**
   * Every cycle of the plan, one per strongly connected component: the path in edge order (writer →
   * reader), starting and ending at the component's first call in plan order.
   */
  readonly cycles: string[][];
  /** Remaining critical path of every call (its cost plus the largest among its readers'), by id, in plan order. */
  readonly criticalPaths: Map<string, number>;
}

/**
 * Cycles and critical paths of the internal DAG. When every link goes from an earlier call to a later one
 * (`planOrderIsTopological`, the common case), there is no cycle and one backward sweep gives the critical
 * paths; otherwise the general passes (Tarjan, depth-first longest paths) run on the numbered graph. Cycles
 * also follow the plan-order commits of co-writers (`commitNext`, always earlier → later); critical paths
 * do not.
 */
export function analyzeDag(nodes: readonly DagNode[], planOrderIsTopological: boolean): DagAnalysis {
  const criticalPaths = new Map<string, number>();
  if (planOrderIsTopological) {
    const value = new Float64Array(nodes.length);
    // A group's value is kept on the group, marked with this analysis' number (no map of groups).
    const analysis = ++analyses;
    for (let i = nodes.length - 1; i >= 0; i--) {
      const node = nodes[i] as DagNode;
      let longest = 0;
      const groups = node.outGroups;
      for (let g = 0, count = outGroupCount(groups); g < count; g++) {
        const group = outGroupAt(groups, g);
        if (group.analysis !== analysis) {
          let best = 0;
          const readers = group.readers;
          for (let r = 0; r < readers.length; r++)
            best = Math.max(best, value[(readers[r] as DagNode).position] as number);
          group.longest = best;
          group.analysis = analysis;
        }
        longest = Math.max(longest, group.longest);
      }
      value[i] = node.cost + longest;
    }
    for (let i = 0; i < nodes.length; i++) criticalPaths.set((nodes[i] as DagNode).id, value[i] as number);
    return { cycles: [], criticalPaths };
  }
  const graph = numbered(nodes);
  const value = criticalPathValues(nodes, graph);
  for (let i = 0; i < nodes.length; i++) criticalPaths.set((nodes[i] as DagNode).id, value[i] as number);
  // Plan-order commits of co-writers close cycles too (they point forward: plan order stays topological).
  for (let i = 0; i < nodes.length; i++)
    for (const next of (nodes[i] as DagNode).commitNext) (graph.succ[i] as number[]).push(next.position);
  const cycles = cyclicComponents(graph).map((component) => {
    const calls = component.filter((v) => v < nodes.length);
    const start = calls.reduce((best, v) =>
      (nodes[v] as DagNode).index < (nodes[best] as DagNode).index ? v : best,
    );
    return cycleFrom(graph, start, new Set(component));
  });
  return { cycles, criticalPaths };
}

/** Calls visited by streaming cycle searches in this process (a measure of their work, for tests). */
export const cycleSearches = { visited: 0 };

/** The part of the graph a streaming cycle search may visit: calls at most `bound` in `order`. */
export interface SearchRegion {
  readonly order: TopologicalOrder;
  readonly bound: number;
}

/**
 * Streaming: the cycle `id → … → id` that linking a new call would close, or undefined. `readers` are
 * the calls that will read the new call (its successors), `isPredecessor` tells those it reads or commits
 * after (its predecessors). The search follows references and the plan-order commits of co-writers
 * (`commitNext`), breadth first. With a `region`, it leaves out the calls labelled after `bound` (the largest
 * label among its predecessors): labels grow along every edge, so no path from a reader to a predecessor
 * passes through them, and the calls it does visit are found in the same order, with the same shortest
 * path. `reached` gets the calls visited (the readers' descendants within the region when there is no
 * cycle).
 */
export function closingCycle(
  id: string,
  readers: readonly DagNode[],
  isPredecessor: (node: DagNode) => boolean,
  region?: SearchRegion,
  reached: DagNode[] = [],
): string[] | undefined {
  const found = limitedClosingCycle(id, readers, isPredecessor, region, reached, Number.POSITIVE_INFINITY);
  return found === UNFINISHED ? undefined : found;
}

/** What a search stopped at its limit returns. */
export const UNFINISHED = Symbol("unfinished");

/** `closingCycle` that gives up (`UNFINISHED`) once more than `limit` calls are to be visited. */
export function limitedClosingCycle(
  id: string,
  readers: readonly DagNode[],
  isPredecessor: (node: DagNode) => boolean,
  region: SearchRegion | undefined,
  reached: DagNode[],
  limit: number,
): string[] | undefined | typeof UNFINISHED {
  const previous = new Map<string, string>();
  const queue = reached;
  const outside = (node: DagNode): boolean =>
    region !== undefined && region.order.label(node.position) > region.bound;
  for (const reader of readers) {
    if (previous.has(reader.id) || outside(reader)) continue;
    previous.set(reader.id, id);
    queue.push(reader);
  }
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head] as DagNode;
    const at = node.id;
    cycleSearches.visited++;
    if (head >= limit) return UNFINISHED;
    if (isPredecessor(node)) {
      const path = [id];
      for (let step: string | undefined = at; step !== undefined && step !== id; step = previous.get(step))
        path.push(step);
      return [id, ...path.slice(1).reverse(), id];
    }
    const groups = node.outGroups;
    for (let g = 0, count = outGroupCount(groups); g < count; g++)
      for (const next of outGroupAt(groups, g).readers)
        if (!previous.has(next.id) && next.id !== id && !outside(next)) {
          previous.set(next.id, at);
          queue.push(next);
        }
    for (const next of node.commitNext)
      if (!previous.has(next.id) && next.id !== id && !outside(next)) {
        previous.set(next.id, at);
        queue.push(next);
      }
  }
  return undefined;
}
