import type { Diagnostic, SourceMap } from "@obelisk/core";
import { parsePointer } from "@obelisk/core";

/** The position of the pointed value in the parsed document: key order of objects, index order of arrays. */
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
 * Where the pointed value starts in the submitted text: the offset of the pointer, or of its nearest
 * parent the text holds (a missing parameter is reported at its call).
 */
function offsetOf(sourceMap: SourceMap, pointer: string): number {
  for (let at = pointer; ; at = at.slice(0, at.lastIndexOf("/"))) {
    const position = sourceMap.positionOf(at);
    if (position !== undefined) return position.offset;
    if (at === "") return 0;
  }
}

/**
 * Sorts diagnostics in document order (SPEC §6, every diagnostic at once), stable. A plan given as text
 * is ordered by where each pointed value starts in the text (`sourceMap`): a document whose JSON could
 * not be built (duplicate keys, numbers out of range) has only the text, and the text's order is the one
 * a reader follows (integer-like keys come first in a parsed object). Otherwise by the position of the
 * pointed value in the document (key order of objects, index order of arrays). Document-level
 * diagnostics (`/id`) take their place among the calls' (`/plan/0/…`); equal places keep the order the
 * passes produced.
 */
export function sortDiagnostics(
  diagnostics: readonly Diagnostic[],
  document: unknown,
  sourceMap?: SourceMap,
): Diagnostic[] {
  const keyed = diagnostics.map((diagnostic, order) => ({
    diagnostic,
    order,
    offset: sourceMap === undefined ? 0 : offsetOf(sourceMap, diagnostic.pointer),
    rank: rankOf(document, diagnostic.pointer),
  }));
  keyed.sort((a, b) => a.offset - b.offset || compareRanks(a.rank, b.rank) || a.order - b.order);
  return keyed.map((item) => item.diagnostic);
}
