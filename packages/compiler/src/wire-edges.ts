import type { Reference } from "@obelisk/core";
import type { WriterEntry } from "./builder-types.js";
import type { ParamReference, PlanGraph, WriterLink } from "./compiled-plan.js";
import type { PathIndex } from "./path-index.js";

/** Operands of every reference of a call: each `Reference` of each expression, in document order. */
export function operandsOf(references: readonly ParamReference[]): Reference[] {
  const operands: Reference[] = [];
  for (const { value } of references) {
    if (value.type === "reference") for (const gate of value.expression.alternatives) operands.push(...gate);
    else if (value.type === "template")
      for (const part of value.parts)
        if (typeof part !== "string") for (const gate of part.alternatives) operands.push(...gate);
  }
  return operands;
}

/** Writer links of one reference operand: other calls whose targets overlap it, with the overlapping alternatives. */
export function writersOf(
  reference: Reference,
  selfId: string,
  writers: PathIndex<WriterEntry>,
  alternativeCount: (callId: string) => number,
  indexOf: (callId: string) => number,
): WriterLink[] {
  const byCall = new Map<string, Set<number>>();
  for (const { entry } of writers.overlapping(reference.kind, reference.path)) {
    if (entry.callId === selfId) continue;
    let set = byCall.get(entry.callId);
    if (set === undefined) {
      set = new Set();
      byCall.set(entry.callId, set);
    }
    set.add(entry.alternative);
  }
  const links = [...byCall].map(([callId, set]) => makeLink(callId, set, alternativeCount(callId)));
  return links.sort((a, b) => indexOf(a.callId) - indexOf(b.callId));
}

/** A writer link. */
export function makeLink(callId: string, alternatives: ReadonlySet<number>, total: number): WriterLink {
  const sorted = [...alternatives].sort((a, b) => a - b);
  return { callId: callId as WriterLink["callId"], alternatives: sorted, conditional: sorted.length < total };
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
