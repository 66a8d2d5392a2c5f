import type { CallEntry } from "./builder-types.js";
import type { WriterLink } from "./compiled-plan.js";

/**
 * Above this many (writer, reader) pairs, the readers of one writer list are drawn through a join node:
 * W writers and R readers cost W + R edges instead of W × R (decision 0080). At or below it the graph has an
 * edge per pair, as it always had: a plan's graph only changes where a path has many writers and many readers.
 */
export const JOIN_ABOVE_PAIRS = 64;

/** One distinct writer list of the plan (the same writers with the same alternatives) and its readers. */
export interface WriterSet {
  /** The list as first met: every list with the same writers and alternatives shares the set. */
  readonly links: readonly WriterLink[];
  /** Reference texts read through it, each once, in order of first read. */
  readonly texts: Set<string>;
  /** How many distinct calls read through it. */
  readers: number;
  /** The last reader counted (a reader's references are met one after another). */
  lastReader: string | undefined;
  /** The largest critical path among its readers. */
  criticalPath: number;
  /** Its join node's id (`join#<n>`), when its readers are drawn through one. */
  join: string | undefined;
}

/**
 * What a link's edge into a join depends on: the writer, and its alternatives when conditional (an
 * unconditional link names all of them). Call ids never hold `|` or a newline.
 */
export function linkKey(link: WriterLink): string {
  return link.conditional ? `${link.callId}|${link.alternatives.join(",")}` : link.callId;
}

/**
 * The writer sets of every list of two writers or more that `entries` read, by list. Lists of one group are
 * one array (readers of a reference text share it), so each array is keyed once; arrays with the same
 * content (readers of `†state.acc.0` … `†state.acc.<n>`, all written by the pushers into `†state.acc`) share
 * a set, and so a join. Sets whose readers make more than {@link JOIN_ABOVE_PAIRS} pairs get a join id,
 * numbered in order of first read. Work and memory: the lists' links once, plus a step per reference.
 */
export function writerSets(
  entries: readonly CallEntry[],
  criticalPathOf: (entry: CallEntry) => number,
): Map<readonly WriterLink[], WriterSet> {
  const byList = new Map<readonly WriterLink[], WriterSet>();
  const byContent = new Map<string, WriterSet>();
  for (const entry of entries) {
    const reader = entry.call.id;
    for (const [text, links] of entry.writers) {
      if (links.length < 2) continue;
      let set = byList.get(links);
      if (set === undefined) {
        const key = links.map(linkKey).join("\n");
        set = byContent.get(key);
        if (set === undefined) {
          set = {
            links,
            texts: new Set(),
            readers: 0,
            lastReader: undefined,
            criticalPath: 0,
            join: undefined,
          };
          byContent.set(key, set);
        }
        byList.set(links, set);
      }
      set.texts.add(text);
      if (set.lastReader !== reader) {
        set.lastReader = reader;
        set.readers++;
        set.criticalPath = Math.max(set.criticalPath, criticalPathOf(entry));
      }
    }
  }
  let joins = 0;
  for (const set of byContent.values())
    if (set.readers >= 2 && set.links.length * set.readers > JOIN_ABOVE_PAIRS) set.join = `join#${++joins}`;
  return byList;
}
