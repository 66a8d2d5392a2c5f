import type { Reference } from "@obelisk/core";
import type { WriterEntry } from "./builder-types.js";
import { clearList } from "./clear-list.js";
import type { PlanGraph, WriterLink } from "./compiled-plan.js";
import type { PathIndex } from "./path-index.js";

const scratch: WriterEntry[] = [];

function byIndexThenAlternative(a: WriterEntry, b: WriterEntry): number {
  return a.index - b.index || a.alternative - b.alternative;
}

/**
 * Writer links of one reference operand: other calls whose targets overlap it, with the overlapping
 * alternatives (ascending), in plan order of the writers.
 */
export function writersOf(
  reference: Reference,
  selfId: string,
  writers: PathIndex<WriterEntry>,
): WriterLink[] {
  const hits = writers.collectOverlapping(reference.kind, reference.path, scratch);
  try {
    if (hits.length === 0) return [];
    if (hits.length === 1) {
      const only = hits[0] as WriterEntry;
      return only.callId === selfId ? [] : [linkOfEntry(only)];
    }
    const sorted = hits.filter((entry) => entry.callId !== selfId).sort(byIndexThenAlternative);
    const links: WriterLink[] = [];
    for (let i = 0; i < sorted.length; ) {
      const first = sorted[i] as WriterEntry;
      const alternatives = [first.alternative];
      for (i++; i < sorted.length && (sorted[i] as WriterEntry).callId === first.callId; i++) {
        const alternative = (sorted[i] as WriterEntry).alternative;
        if (alternative !== alternatives[alternatives.length - 1]) alternatives.push(alternative);
      }
      links.push(
        alternatives.length === 1
          ? linkOfEntry(first)
          : linkOf(first.callId, first.position, alternatives, first.total),
      );
    }
    return links;
  } finally {
    clearList(scratch);
  }
}

/** Shared `[n]` lists for the common single-alternative link (links are read-only). */
const SINGLE: number[][] = [];

function singleAlternative(alternative: number): number[] {
  if (alternative >= 8) return [alternative];
  let list = SINGLE[alternative];
  if (list === undefined) {
    list = [alternative];
    SINGLE[alternative] = list;
  }
  return list;
}

function linkOf(callId: string, position: number, sorted: number[], total: number): WriterLink {
  return {
    callId: callId as WriterLink["callId"],
    position,
    alternatives: sorted,
    conditional: sorted.length < total,
  };
}

/** The entry's link to its alternative, made on first use and shared after (links are read-only). */
function linkOfEntry(entry: WriterEntry): WriterLink {
  entry.link ??= linkOf(entry.callId, entry.position, singleAlternative(entry.alternative), entry.total);
  return entry.link;
}

/**
 * The links of the call being added, one per alternative, made when first needed: `own` is emptied for
 * each call, and its entries take what was made (shared by every group the alternative writes into).
 */
export function ownLink(
  own: (WriterLink | undefined)[],
  callId: string,
  position: number,
  alternative: number,
  total: number,
): WriterLink {
  let link = own[alternative];
  if (link === undefined) {
    link = linkOf(callId, position, singleAlternative(alternative), total);
    own[alternative] = link;
  }
  return link;
}

/** A writer link of the call being added (at `position`): its shared one (`own`) for a single alternative. */
export function makeLink(
  callId: string,
  position: number,
  alternatives: ReadonlySet<number>,
  own: (WriterLink | undefined)[],
  total: number,
): WriterLink {
  if (alternatives.size === 1)
    for (const only of alternatives) return ownLink(own, callId, position, only, total);
  const sorted = [...alternatives].sort((a, b) => a - b);
  return linkOf(callId, position, sorted, total);
}

/** Adds or merges the edge writer → reader for one link carried by one reference. */
export function addEdge(
  graph: PlanGraph,
  writer: string,
  reader: string,
  link: WriterLink,
  text: string,
): void {
  if (!graph.hasEdge(writer, reader)) {
    graph.addEdge(writer, reader, {
      alternatives: link.alternatives,
      conditional: link.conditional,
      references: [text],
    });
    return;
  }
  const current = graph.getEdgeAttributes(writer, reader);
  const alternatives = [...new Set([...current.alternatives, ...link.alternatives])].sort((a, b) => a - b);
  const references = current.references.includes(text) ? current.references : [...current.references, text];
  graph.replaceEdgeAttributes(writer, reader, {
    alternatives,
    conditional: current.conditional || link.conditional,
    references,
  });
}
