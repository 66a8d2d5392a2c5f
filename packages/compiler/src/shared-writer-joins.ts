import type { CallEntry } from "./builder-types.js";
import type { WriterLink } from "./compiled-plan.js";
import { JOIN_ABOVE_PAIRS, linkKey, type WriterSet } from "./writer-sets.js";

/**
 * A join of the writers that different writer lists share (decision 0080, amended at stop 38): the `push`ers
 * into `†state.acc` in the lists of `†state.acc[0]` … `†state.acc[n]` when each element has a writer of its
 * own too. Its writers have an edge to it, it has one to each reader of a list holding them.
 */
export interface SharedJoin {
  /** `join#<n>`, numbered after the joins of whole lists, in order of first read. */
  readonly id: string;
  /** Its writers, in the order of the first list holding them. */
  readonly links: readonly WriterLink[];
  /** The texts of the lists holding them, each once, in order of first read. */
  readonly texts: readonly string[];
  /** The largest critical path among its readers. */
  readonly criticalPath: number;
}

/** How a list with shared writers is drawn: through their joins, and the rest of its writers pair by pair. */
interface SharedParts {
  /** The joins of its shared writers, in order of their first link in the list. */
  readonly joins: readonly SharedJoin[];
  /** Its other writers. */
  readonly rest: readonly WriterLink[];
}

/** The writers that are in exactly the same lists (a class of the lists' partition refinement). */
interface WriterClass {
  /** The class it was split from (undefined: from the writers no list was met with yet). */
  readonly parent: WriterClass | undefined;
  /** The index of the list that split it off (its writers are in that list and in its parent's lists). */
  readonly list: number;
  /** The class last split off this one, and by which list (each list splits a class once). */
  lastSplit: WriterClass | undefined;
  /** Its join, when it has one; `null` once found to have none. */
  join: SharedJoin | null | undefined;
  /** The last list whose parts took its join (a list's links hold its writers one after another or not). */
  drawnIn: number;
}

/** One list drawn pair by pair by {@link writerSets}, with its readers. */
interface OpenList {
  readonly set: WriterSet;
  readonly readers: string[];
}

/** A writer (a link key) of the open lists: its link as first met, and its class. */
interface ClassedWriter {
  readonly link: WriterLink;
  writerClass: WriterClass;
}

/**
 * The joins of writers shared by lists that are not joined whole (by {@link writerSets}), by list. Writers in
 * exactly the same such lists form a class; a class of at least 2 writers read by at least 2 calls through
 * them, in more than {@link JOIN_ABOVE_PAIRS} (writer, reader) pairs, is drawn through a join, numbered from
 * `first + 1`. Empty when no class is (then the graph is drawn as before). Work and memory: the open lists'
 * links once, plus the readers and texts of each class of 2 writers or more once.
 */
export function sharedJoins(
  entries: readonly CallEntry[],
  sets: ReadonlyMap<readonly WriterLink[], WriterSet>,
  first: number,
): Map<WriterSet, SharedParts> {
  const lists = openLists(entries, sets);
  const writers = classify(lists);
  const members = new Map<WriterClass, WriterLink[]>();
  for (const { link, writerClass } of writers.values()) {
    const links = members.get(writerClass);
    if (links === undefined) members.set(writerClass, [link]);
    else links.push(link);
  }
  const parts = new Map<WriterSet, SharedParts>();
  let joins = first;
  lists.forEach(({ set }, list) => {
    const shared: SharedJoin[] = [];
    const rest: WriterLink[] = [];
    for (const link of set.links) {
      const writerClass = (writers.get(linkKey(link)) as ClassedWriter).writerClass;
      if (writerClass.join === undefined) {
        writerClass.join = classJoin(writerClass, members.get(writerClass) ?? [], lists, joins + 1);
        if (writerClass.join !== null) joins++;
      }
      if (writerClass.join === null) rest.push(link);
      else if (writerClass.drawnIn !== list) {
        writerClass.drawnIn = list;
        shared.push(writerClass.join);
      }
    }
    if (shared.length > 0) parts.set(set, { joins: shared, rest });
  });
  return parts;
}

/** Each writer of `lists` with its class: the writers in exactly the same lists share one (partition refinement). */
function classify(lists: readonly OpenList[]): Map<string, ClassedWriter> {
  const root: WriterClass = { parent: undefined, list: -1, lastSplit: undefined, join: null, drawnIn: -1 };
  const writers = new Map<string, ClassedWriter>();
  lists.forEach(({ set }, list) => {
    for (const link of set.links) {
      const key = linkKey(link);
      let writer = writers.get(key);
      if (writer === undefined) {
        writer = { link, writerClass: root };
        writers.set(key, writer);
      }
      const current = writer.writerClass;
      if (current.list === list) continue; // a writer named twice in one list
      let split = current.lastSplit;
      if (split?.list !== list) {
        split = { parent: current, list, lastSplit: undefined, join: undefined, drawnIn: -1 };
        current.lastSplit = split;
      }
      writer.writerClass = split;
    }
  });
  return writers;
}

/**
 * The join of `writerClass` (its writers `links`), numbered `number`, when at least 2 writers and 2 readers
 * make more than {@link JOIN_ABOVE_PAIRS} pairs; else null.
 */
function classJoin(
  writerClass: WriterClass,
  links: WriterLink[],
  lists: readonly OpenList[],
  number: number,
): SharedJoin | null {
  if (links.length < 2) return null;
  const held: OpenList[] = [];
  for (let at: WriterClass | undefined = writerClass; at?.parent !== undefined; at = at.parent)
    held.push(lists[at.list] as OpenList);
  held.reverse();
  const readers = new Set<string>();
  for (const list of held) for (const reader of list.readers) readers.add(reader);
  if (readers.size < 2 || links.length * readers.size <= JOIN_ABOVE_PAIRS) return null;
  const texts = new Set<string>();
  let criticalPath = 0;
  for (const { set } of held) {
    for (const text of set.texts) texts.add(text);
    criticalPath = Math.max(criticalPath, set.criticalPath);
  }
  return { id: `join#${number}`, links, texts: [...texts], criticalPath };
}

/** The lists {@link writerSets} left unjoined, in order of first read, with their distinct readers. */
function openLists(
  entries: readonly CallEntry[],
  sets: ReadonlyMap<readonly WriterLink[], WriterSet>,
): OpenList[] {
  const lists: OpenList[] = [];
  const bySet = new Map<WriterSet, OpenList>();
  for (const entry of entries)
    for (const links of entry.writers.values()) {
      const set = sets.get(links);
      if (set === undefined || set.join !== undefined) continue;
      let list = bySet.get(set);
      if (list === undefined) {
        list = { set, readers: [] };
        bySet.set(set, list);
        lists.push(list);
      }
      if (list.readers[list.readers.length - 1] !== entry.call.id) list.readers.push(entry.call.id);
    }
  return lists;
}
