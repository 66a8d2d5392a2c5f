import type { Diagnostic, SourceMap } from "@obelisk/core";
import { parsePointer } from "@obelisk/core";

/** Objects with more keys than this get their key order indexed once per sort (see `keyRank`). */
const INDEXED_KEYS = 16;

/**
 * The place of `key` among `object`'s keys. A large object's keys are indexed once per sort: looking each
 * diagnostic's key up in `Object.keys` made a call of 20,000 parameters, each with a warning, take 123 s
 * to sort (quadratic).
 */
function keyRank(object: object, key: string, indexes: Map<object, Map<string, number>>): number {
  let index = indexes.get(object);
  if (index === undefined) {
    const keys = Object.keys(object);
    if (keys.length <= INDEXED_KEYS) return keys.indexOf(key);
    index = new Map(keys.map((name, at) => [name, at]));
    indexes.set(object, index);
  }
  return index.get(key) ?? -1;
}

/** The position of the pointed value in the parsed document: key order of objects, index order of arrays. */
function rankOf(root: unknown, pointer: string, indexes: Map<object, Map<string, number>>): number[] {
  const rank: number[] = [];
  let current = root;
  for (const segment of pointer === "" ? [] : parsePointer(pointer)) {
    if (Array.isArray(current)) {
      rank.push(Number(segment));
      current = current[Number(segment)];
    } else if (typeof current === "object" && current !== null) {
      rank.push(keyRank(current, segment, indexes));
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
  const indexes = new Map<object, Map<string, number>>();
  const keyed = diagnostics.map((diagnostic, order) => ({
    diagnostic,
    order,
    offset: sourceMap === undefined ? 0 : offsetOf(sourceMap, diagnostic.pointer),
    rank: rankOf(document, diagnostic.pointer, indexes),
  }));
  keyed.sort((a, b) => a.offset - b.offset || compareRanks(a.rank, b.rank) || a.order - b.order);
  return keyed.map((item) => item.diagnostic);
}
