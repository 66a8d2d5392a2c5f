import type { WriterLink } from "./compiled-plan.js";

/** Above this many operands a call's table is a Map (lookups by hash instead of a scan). */
const MAX_SCANNED = 8;

/**
 * A call's `writers` (operand text → writer links) for a few operands: the first pair in two fields, the
 * others in one list of alternating texts and links. A `Map` per call held a hash table of ~150 bytes for
 * one to four entries, for as long as the compiled plan lives. Never changed once made (the links lists
 * are the writer groups' own, which grow as writers arrive). Iteration, which only the graph export and
 * tests do, goes through a Map built for it.
 */
class WriterTable implements ReadonlyMap<string, readonly WriterLink[]> {
  readonly #text: string;
  readonly #links: readonly WriterLink[];
  /** `[text, links, text, links, …]` of the second and later operands, if any. */
  readonly #rest: readonly (string | readonly WriterLink[])[] | undefined;

  constructor(
    text: string,
    links: readonly WriterLink[],
    rest?: readonly (string | readonly WriterLink[])[],
  ) {
    this.#text = text;
    this.#links = links;
    this.#rest = rest;
  }

  /** `linksSummary` of this table, read from its fields. */
  summary(): number {
    let summary = summaryOf(this.#links);
    const rest = this.#rest;
    if (rest !== undefined)
      for (let at = 1; at < rest.length; at += 2) summary |= summaryOf(rest[at] as readonly WriterLink[]);
    return summary;
  }

  get size(): number {
    return this.#rest === undefined ? 1 : 1 + this.#rest.length / 2;
  }

  get(text: string): readonly WriterLink[] | undefined {
    if (text === this.#text) return this.#links;
    const rest = this.#rest;
    if (rest === undefined) return undefined;
    for (let at = 0; at < rest.length; at += 2)
      if (rest[at] === text) return rest[at + 1] as readonly WriterLink[];
    return undefined;
  }

  has(text: string): boolean {
    return this.get(text) !== undefined;
  }

  forEach(
    callback: (
      links: readonly WriterLink[],
      text: string,
      map: ReadonlyMap<string, readonly WriterLink[]>,
    ) => void,
    thisArg?: unknown,
  ): void {
    for (const [text, links] of this.#asMap()) callback.call(thisArg, links, text, this);
  }

  entries(): MapIterator<[string, readonly WriterLink[]]> {
    return this.#asMap().entries();
  }

  keys(): MapIterator<string> {
    return this.#asMap().keys();
  }

  values(): MapIterator<readonly WriterLink[]> {
    return this.#asMap().values();
  }

  [Symbol.iterator](): MapIterator<[string, readonly WriterLink[]]> {
    return this.#asMap().entries();
  }

  #asMap(): Map<string, readonly WriterLink[]> {
    const map = new Map<string, readonly WriterLink[]>([[this.#text, this.#links]]);
    const rest = this.#rest;
    if (rest !== undefined)
      for (let at = 0; at < rest.length; at += 2)
        map.set(rest[at] as string, rest[at + 1] as readonly WriterLink[]);
    return map;
  }
}

/** `linksSummary` bit: some operand has no in-plan writer. */
export const UNLINKED_OPERAND = 1;
/** `linksSummary` bit: some operand has one writer, and it writes the path in some alternatives only. */
export const CONDITIONAL_OPERAND = 2;

function summaryOf(links: readonly WriterLink[]): number {
  if (links.length === 0) return UNLINKED_OPERAND;
  return links.length === 1 && (links[0] as WriterLink).conditional ? CONDITIONAL_OPERAND : 0;
}

/**
 * What the close passes need to know of a call's operands before walking its references (the table holds
 * every operand's text): `UNLINKED_OPERAND` when one has no writer (else none can be REF_UNRESOLVED),
 * `CONDITIONAL_OPERAND` when one has a single conditional writer (else the call cannot be UNREACHABLE).
 * One pass over the table's fields instead of a walk through each reference's parsed value, whose objects
 * in a large plan are far apart in memory.
 */
export function linksSummary(table: ReadonlyMap<string, readonly WriterLink[]>): number {
  if (table instanceof WriterTable) return table.summary();
  let summary = 0;
  for (const links of table.values()) summary |= summaryOf(links);
  return summary;
}

/** A writer group, as far as a table reads it. */
interface Linked {
  readonly links: readonly WriterLink[];
}

/** The writers of a call's operands (`texts[i]` read through `groups[i].links`): a WriterTable, or a Map for many. */
export function writerTable(
  texts: readonly string[],
  groups: readonly Linked[],
): ReadonlyMap<string, readonly WriterLink[]> {
  const count = texts.length;
  if (count === 0) return EMPTY;
  if (count > MAX_SCANNED) {
    const map = new Map<string, readonly WriterLink[]>();
    for (let index = 0; index < count; index++)
      map.set(texts[index] as string, (groups[index] as Linked).links);
    return map;
  }
  const first = (groups[0] as Linked).links;
  if (count === 1) return new WriterTable(texts[0] as string, first);
  const rest: (string | readonly WriterLink[])[] = new Array((count - 1) * 2);
  for (let index = 1; index < count; index++) {
    rest[(index - 1) * 2] = texts[index] as string;
    rest[(index - 1) * 2 + 1] = (groups[index] as Linked).links;
  }
  return new WriterTable(texts[0] as string, first, rest);
}

/** The writers of a call without references (shared: never changed). */
const EMPTY: ReadonlyMap<string, readonly WriterLink[]> = new Map();
