import { parsePointer, type SourceMap } from "@obelisk/core";

/** Where a pointed value is in the submitted document, comparable as the compiler orders its diagnostics. */
export interface DocumentPlace {
  /** True when this place comes strictly before `other`. */
  before(other: DocumentPlace): boolean;
}

/** A place: the offset in the text (0 without one), then the position by key and index order. */
class Place implements DocumentPlace {
  constructor(
    readonly offset: number,
    readonly rank: readonly number[],
  ) {}

  before(other: DocumentPlace): boolean {
    const { offset, rank } = other as Place;
    if (this.offset !== offset) return this.offset < offset;
    const length = Math.min(this.rank.length, rank.length);
    for (let at = 0; at < length; at++)
      if (this.rank[at] !== rank[at]) return (this.rank[at] as number) < (rank[at] as number);
    return this.rank.length < rank.length;
  }
}

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

/** Where the pointed value (or its nearest parent the text holds) starts in the text. */
function offsetOf(sourceMap: SourceMap, pointer: string): number {
  for (let at = pointer; ; at = at.slice(0, at.lastIndexOf("/"))) {
    const position = sourceMap.positionOf(at);
    if (position !== undefined) return position.offset;
    if (at === "") return 0;
  }
}

/**
 * The places of pointers into a document, in the compiler's order of diagnostics: by where the value
 * starts in the text when the plan was text, then by key and index order. (The same order as the
 * compiler's `sortDiagnostics`, which `@obelisk/compiler` does not export.)
 */
export function documentPlaces(
  document: unknown,
  sourceMap: SourceMap | undefined,
): (pointer: string) => DocumentPlace {
  return (pointer) =>
    new Place(sourceMap === undefined ? 0 : offsetOf(sourceMap, pointer), rankOf(document, pointer));
}
