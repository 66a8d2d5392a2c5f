import type { CallEntry } from "./builder-types.js";
import { clearList } from "./clear-list.js";
import type { WriterLink } from "./compiled-plan.js";
import {
  closingCycle,
  cycleSearches,
  type DagNode,
  limitedClosingCycle,
  NO_ITEMS,
  outGroupAt,
  outGroupCount,
  UNFINISHED,
  WriterGroup,
} from "./plan-dag.js";
import { RegionStarts } from "./region-starts.js";
import { TopologicalOrder } from "./topological-order.js";

/** `#placeAfter` of a call that goes last in the order. */
const APPEND = -2;
/** What `#ancestors` returns when the new call would close a cycle. */
const CLOSES = Symbol("closes");

/**
 * Calls a stream's ordering searches may visit in all: this many, plus `SEARCH_VISITS_PER_CALL` per call
 * placed. A refused call costs a search as long as the cycle it would close, so calls that keep closing a
 * long cycle made a stream quadratic (2,000 refusals of a 20,000-call cycle: 2 minutes); the streams tried
 * in order or out of it (reverse chains, ladders, random) visit at most 8 calls per call.
 */
export const SEARCH_VISITS = 1_000_000;
/** See `SEARCH_VISITS`. */
export const SEARCH_VISITS_PER_CALL = 20;

/** What `check` answers once the stream's searches have visited more than their budget. */
export const SEARCH_BUDGET_SPENT = Symbol("search budget spent");

/**
 * The earliest call in the order of a readers list (the latest of a writers list), among its first
 * `scanned` items; `stale` once it moved away from that end.
 */
interface KnownEnd {
  node: DagNode | undefined;
  scanned: number;
  stale: boolean;
}

/** A cycle a new call would close: its path (call ids, `id → … → id`) and the co-writers it commits after. */
export interface ClosedCycle {
  readonly path: string[];
  readonly commitsAfter: ReadonlySet<string>;
}

/** What `StreamingOrder`'s search of a new call `id` starts from (see `check`). */
interface CycleSearch {
  readonly id: string;
  /** The calls that read what it writes, one list per group it feeds. */
  readonly readers: readonly (readonly DagNode[])[];
  /** The label of its latest predecessor. */
  readonly bound: number;
  /** Its earliest reader in the order. */
  readonly first: DagNode;
  /** Its readers labelled up to `bound`. */
  readonly starts: RegionStarts;
  /** Its predecessors labelled from `first`. */
  readonly predecessors: RegionStarts;
  /** Whether a call is one of its predecessors (without a set of them all: decision 0084). */
  readonly isPredecessor: (node: DagNode) => boolean;
}

/**
 * Streaming: the compiled calls in a topological order kept as they arrive (a dynamic topological order,
 * after Pearce and Kelly), so that the check of a new call searches only the calls between its readers
 * and its writers in that order, not everything downstream of its readers (security review H2). A new call
 * goes right after the latest of its writers; when one of its readers comes before that writer, the
 * readers' descendants up to it move after the new call, or the writers' ancestors down to the earliest
 * reader move before it, whichever is found first. `check` finds the place, `place` takes it once the call
 * is added.
 */
export class StreamingOrder {
  readonly #order = new TopologicalOrder();
  /** Where the call being checked goes: after this position (`APPEND`: last, `-1`: first) … */
  #placeAfter = APPEND;
  /** … or right before this reader, with `#moved` before it. */
  #placeBefore: DagNode | undefined = undefined;
  /** The calls that move next to the call being checked, in order. */
  readonly #moved: DagNode[] = [];
  /** The earlier co-writers the call being checked commits after. */
  #earlier: readonly DagNode[] = NO_ITEMS;
  /** The earlier co-writers each accumulating call commits after, by position (edges into it). */
  readonly #commitBefore = new Map<number, readonly DagNode[]>();
  /**
   * Calls the searches of this stream have visited, and the readers and predecessors they passed over or
   * rescanned (see `#earliestOf`, `RegionStarts`).
   */
  #visited = 0;
  /**
   * The earliest in the order of each readers list looked at (a group's `readers`, grown in place past 4
   * items), so that a writer's check looks at the readers appended since, not at all of them: n writers
   * with a predecessor fed by n earlier readers scanned them all each (16,000 + 16,000: 4.6 s). `place`
   * keeps it when calls move: one moved earlier may become a list's earliest, and a list whose earliest
   * moved later is rescanned (counted as visits).
   */
  readonly #earliest = new WeakMap<readonly DagNode[], KnownEnd>();
  /**
   * The latest in the order of each group's writers (its `links`, grown in place), kept as `#earliest`:
   * n calls reading a path n calls write, each also writing what an earlier call reads, scanned every
   * writer each (8,000: 21 s).
   */
  readonly #latest = new WeakMap<readonly WriterLink[], KnownEnd>();

  /** `nodes`: the builder's compiled calls by position (grown by it). */
  constructor(readonly nodes: readonly CallEntry[]) {}

  /**
   * The cycle that adding call `id` would close, or undefined, with its place found. `readers`: the calls
   * that read what it writes, one list per group it feeds (not copied into one: a call with no predecessor
   * never looks at them, so n writers of a path n calls read cost O(n), not O(n²)); `groups`: the groups it reads (their writers are its predecessors); `earlier`:
   * the co-writers it commits after. `SEARCH_BUDGET_SPENT` when the call needs a search and the stream's
   * searches have visited more than their budget (`SEARCH_VISITS`).
   */
  check(
    id: string,
    readers: readonly (readonly DagNode[])[],
    groups: readonly WriterGroup[],
    earlier: readonly DagNode[],
  ): ClosedCycle | undefined | typeof SEARCH_BUDGET_SPENT {
    const order = this.#order;
    this.#placeAfter = APPEND;
    this.#placeBefore = undefined;
    clearList(this.#moved);
    this.#earlier = earlier;
    // A call no earlier call reads goes last; otherwise right after the latest of its predecessors in the
    // order, and a search is needed only when one of its readers is labelled before that predecessor.
    if (readers.every((list) => list.length === 0)) return undefined;
    let after = -1;
    let bound = -1;
    const predecessor = (node: DagNode | undefined): void => {
      const label = node === undefined ? -1 : order.label(node.position);
      if (label > bound) {
        bound = label;
        after = (node as DagNode).position;
      }
    };
    for (const group of groups) predecessor(this.#latestOf(group.links));
    for (const node of earlier) predecessor(node);
    this.#placeAfter = after;
    // no predecessor: the call goes first, before every reader
    if (bound < 0) return undefined;
    let first: DagNode | undefined;
    for (const list of readers) {
      const earliest = this.#earliestOf(list);
      if (
        first === undefined ||
        (earliest !== undefined && order.label(earliest.position) < order.label(first.position))
      )
        first = earliest;
    }
    if (first === undefined || order.label(first.position) > bound) return undefined;
    if (this.#visited > SEARCH_VISITS + SEARCH_VISITS_PER_CALL * this.nodes.length)
      return SEARCH_BUDGET_SPENT;
    // a search: from the readers labelled up to the latest predecessor, and from the predecessors (the
    // writers of what the call reads, then the co-writers it commits after) labelled from the first reader
    const nodes = this.nodes;
    const from = order.label(first.position);
    const starts = new RegionStarts(readers, nodes, (node) => order.label(node.position) <= bound);
    const lists = groups.map((group): readonly WriterLink[] => group.links);
    const predecessors = new RegionStarts(
      [...lists, earlier],
      nodes,
      (node) => order.label(node.position) >= from,
    );
    const writes = writesInto(groups, nodes);
    const committed = new Set(earlier);
    const before = cycleSearches.visited;
    const isPredecessor = (node: DagNode): boolean => committed.has(node) || writes(node);
    const path = this.#search({ id, readers, bound, first, starts, predecessors, isPredecessor });
    this.#visited += cycleSearches.visited - before + starts.skipped + predecessors.skipped;
    if (path === undefined) return undefined;
    const commitsAfter = new Set<string>();
    for (const node of earlier) if (!writes(node)) commitsAfter.add(node.id);
    return { path, commitsAfter };
  }

  /** Puts the call just added at `position` where `check` found its place. */
  place(position: number): void {
    const order = this.#order;
    if (this.#earlier.length > 0) this.#commitBefore.set(position, this.#earlier);
    const moved = this.#moved.map((node) => node.position);
    const before = this.#placeBefore;
    if (before !== undefined) {
      const at = order.previous(before.position);
      order.moveAfter(moved, at);
      order.insertAfter(position, moved.length > 0 ? (moved[moved.length - 1] as number) : at);
    } else {
      if (this.#placeAfter === APPEND) order.append(position);
      else order.insertAfter(position, this.#placeAfter);
      order.moveAfter(moved, position);
    }
    for (const node of this.#moved) this.#movedCall(node, before !== undefined);
  }

  /**
   * The earliest of `list` in the order (undefined: empty): the one known for it, compared with the
   * readers appended since; the whole list is scanned when it is new (or replaced: lists of up to 4 are
   * copied as they grow), and counted as visits when its earliest moved later (see `#earliest`).
   */
  #earliestOf(list: readonly DagNode[]): DagNode | undefined {
    return this.#endOf(this.#earliest, list, (reader) => reader, false);
  }

  /** The latest writer of a group in the order (its `links`), as `#earliestOf` (see `#latest`). */
  #latestOf(links: readonly WriterLink[]): DagNode | undefined {
    return this.#endOf(this.#latest, links, (link) => this.nodes[link.position] as DagNode, true);
  }

  /** `#earliestOf` or (`latest`) `#latestOf` of `items`, kept in `kept`. */
  #endOf<T>(
    kept: WeakMap<readonly T[], KnownEnd>,
    items: readonly T[],
    call: (item: T) => DagNode,
    latest: boolean,
  ): DagNode | undefined {
    const order = this.#order;
    let known = kept.get(items);
    if (known === undefined || known.stale) {
      if (known?.stale === true) this.#visited += items.length;
      known = { node: undefined, scanned: 0, stale: false };
      kept.set(items, known);
    }
    for (let i = known.scanned; i < items.length; i++) {
      const node = call(items[i] as T);
      const end = known.node;
      const label = end === undefined ? 0 : order.label(node.position) - order.label(end.position);
      if (end === undefined || (latest ? label > 0 : label < 0)) known.node = node;
    }
    known.scanned = items.length;
    return known.node;
  }

  /**
   * Keeps `#earliest` of the lists `node` is in (the groups it reads) and `#latest` of the writers lists it
   * is in (the groups it writes into) once it moved, `earlier` or later: toward a list's kept end it may be
   * that end now; away from it, a list whose end it was is rescanned when next looked at. Calls that did not
   * move keep their order.
   */
  #movedCall(node: DagNode, earlier: boolean): void {
    for (const operand of (this.nodes[node.position] as CallEntry).call.operands)
      if (operand instanceof WriterGroup)
        this.#keepEnd(this.#earliest.get(operand.readers), node, earlier, false);
    const groups = node.outGroups;
    for (let g = 0, count = outGroupCount(groups); g < count; g++)
      this.#keepEnd(this.#latest.get(outGroupAt(groups, g).links), node, !earlier, true);
  }

  /** One list's kept end after `node` moved (`toward` that end or away from it); see `#movedCall`. */
  #keepEnd(known: KnownEnd | undefined, node: DagNode, toward: boolean, latest: boolean): void {
    if (known === undefined || known.stale || known.node === undefined) return;
    if (!toward) {
      known.stale = known.node === node;
      return;
    }
    const label = this.#order.label(node.position) - this.#order.label(known.node.position);
    if (latest ? label > 0 : label < 0) known.node = node;
  }

  /**
   * The cycle adding `id` would close, or undefined with its place found, when one of its `readers`
   * (`first` the earliest) is labelled before its latest predecessor (labelled `bound`). Either the
   * readers' descendants labelled before that predecessor move right after the new call, or its
   * predecessors' ancestors labelled after `first` move right before it, whichever search finishes first:
   * both run with a limit doubled until one does, so the work is about twice the smaller set's. The cycle
   * itself is always the breadth-first one from the readers (the same path as a search of the whole graph).
   */
  #search(search: CycleSearch): string[] | undefined {
    const { id, readers, bound, first, starts, predecessors, isPredecessor } = search;
    const order = this.#order;
    const region = { order, bound };
    const moved = this.#moved;
    const byLabel = (a: DagNode, b: DagNode): number => order.label(a.position) - order.label(b.position);
    for (let limit = 8; ; limit *= 2) {
      clearList(moved);
      // the search looks at `limit` calls at most: more starts than that and it stops unfinished anyway
      const found = limitedClosingCycle(id, starts.first(limit + 1), isPredecessor, region, moved, limit);
      if (found !== UNFINISHED) {
        moved.sort(byLabel);
        return found;
      }
      clearList(moved);
      const ancestors = this.#ancestors(predecessors, readers, order.label(first.position), limit);
      if (ancestors === CLOSES) {
        const path = closingCycle(id, starts.all(), isPredecessor, region, moved);
        moved.sort(byLabel);
        return path;
      }
      if (ancestors !== UNFINISHED) {
        for (const node of ancestors) moved.push(node);
        moved.sort(byLabel);
        this.#placeBefore = first;
        return undefined;
      }
    }
  }

  /**
   * `starts` and the calls they descend from, labelled `after` or later (breadth first), or `CLOSES` when
   * one of them is in one of `readers` (it reads what the new call writes: the new call would close a
   * cycle), or `UNFINISHED` once more than `limit` are found.
   */
  #ancestors(
    starts: RegionStarts,
    readers: readonly (readonly DagNode[])[],
    after: number,
    limit: number,
  ): DagNode[] | typeof CLOSES | typeof UNFINISHED {
    const order = this.#order;
    const nodes = this.nodes;
    const found: DagNode[] = [];
    const seen = new Set<DagNode>();
    const visit = (node: DagNode): void => {
      if (!seen.has(node) && order.label(node.position) >= after) {
        seen.add(node);
        found.push(node);
      }
    };
    // only the first `limit` + 1 starts: with more, the search stops unfinished before the next one
    for (const node of starts.first(limit + 1)) visit(node);
    for (let head = 0; head < found.length; head++) {
      cycleSearches.visited++;
      if (head >= limit) return UNFINISHED;
      const node = found[head] as DagNode;
      const entry = nodes[node.position] as CallEntry;
      // a call is in a readers list when it reads through that list's group (its operands hold the group)
      for (const operand of entry.call.operands)
        if (operand instanceof WriterGroup && readers.includes(operand.readers)) return CLOSES;
      for (const operand of entry.call.operands)
        if (operand instanceof WriterGroup)
          for (const link of operand.links)
            if (link.position !== node.position) visit(nodes[link.position] as DagNode);
      for (const earlier of this.#commitBefore.get(node.position) ?? NO_ITEMS) visit(earlier);
    }
    return found;
  }
}

/**
 * Whether a call writes into one of `groups` (is the writer of one of their links), without a set of all
 * their writers: a group some call reads is in each of its writers' `outGroups`; a group no call read yet is
 * registered only once the new call reads it, so the writers of such a group are put in a set.
 */
function writesInto(groups: readonly WriterGroup[], nodes: readonly DagNode[]): (node: DagNode) => boolean {
  const read = new Set(groups);
  const fresh = new Set<DagNode>();
  for (const group of groups)
    if (group.readers.length === 0)
      for (const link of group.links) fresh.add(nodes[link.position] as DagNode);
  return (node) => {
    if (fresh.has(node)) return true;
    const written = node.outGroups;
    for (let g = 0, count = outGroupCount(written); g < count; g++)
      if (read.has(outGroupAt(written, g))) return true;
    return false;
  };
}
