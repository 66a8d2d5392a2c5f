import type { Diagnostic } from "@obelisk/core";
import { parsePointer } from "@obelisk/core";

/** A diagnostic with the plan index of its call (-1 for the document itself). */
export interface IndexedDiagnostic {
  readonly index: number;
  readonly diagnostic: Diagnostic;
}

function rankOf(root: unknown, pointer: string): number[] {
  const rank: number[] = [];
  let current = root;
  for (const segment of pointer === "" ? [] : parsePointer(pointer)) {
    if (Array.isArray(current)) {
      rank.push(Number(segment));
      current = current[Number(segment)];
    } else if (typeof current === "object" && current !== null) {
      rank.push(Object.keys(current).indexOf(segment));
      current = (current as Record<string, unknown>)[segment];
    } else {
      rank.push(-1);
      current = undefined;
    }
  }
  return rank;
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return a.length - b.length;
}

/**
 * Sorts diagnostics in document order: document-level first, then by call index, then by the position of
 * the pointed value inside the document (key order of objects, index order of arrays). Stable.
 */
export function sortDiagnostics(diagnostics: readonly IndexedDiagnostic[], document: unknown): Diagnostic[] {
  const keyed = diagnostics.map((item, order) => ({
    ...item,
    order,
    rank: rankOf(document, item.diagnostic.pointer),
  }));
  keyed.sort((a, b) => a.index - b.index || compareRanks(a.rank, b.rank) || a.order - b.order);
  return keyed.map((item) => item.diagnostic);
}
