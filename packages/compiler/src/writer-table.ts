import type { CallOperand, WriterLink } from "./compiled-plan.js";

/** Above this many distinct operands a call's table is a Map (lookups by hash instead of a scan). */
const MAX_SCANNED = 8;

/**
 * A call's `writers` (operand text → writer links) for a few operands, read from a list of them (the call's
 * own `CompiledCall.operands` when no operand repeats in it, else one of each). A `Map`
 * per call held a hash table of ~150 bytes for one to four entries, for as long as the compiled plan
 * lives. Never changed once made (the links lists are the writer groups' own, which grow as writers
 * arrive). Iteration, which only the graph export and tests do, goes through a Map built for it.
 */
class WriterTable implements ReadonlyMap<string, readonly WriterLink[]> {
  readonly #operands: readonly CallOperand[];

  constructor(operands: readonly CallOperand[]) {
    this.#operands = operands;
  }

  /** `linksSummary` of this table, read from its operands. */
  summary(): number {
    const operands = this.#operands;
    let summary = 0;
    for (let at = 0; at < operands.length; at++) summary |= summaryOf((operands[at] as CallOperand).links);
    return summary;
  }

  get size(): number {
    return this.#operands.length;
  }

  get(text: string): readonly WriterLink[] | undefined {
    const operands = this.#operands;
    for (let at = 0; at < operands.length; at++) {
      const operand = operands[at] as CallOperand;
      if (operand.reference.text === text) return operand.links;
    }
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
    return asMap(this.#operands);
  }
}

/** Each distinct operand's text → its links, in the order of first appearance. */
function asMap(operands: readonly CallOperand[]): Map<string, readonly WriterLink[]> {
  const map = new Map<string, readonly WriterLink[]>();
  for (const operand of operands)
    if (!map.has(operand.reference.text)) map.set(operand.reference.text, operand.links);
  return map;
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

/**
 * The writers of a call's operands: `operands` (the call's list, repeats included) and `distinct` (one of
 * each, in the order first read). A WriterTable over the call's list when nothing repeats in it, over
 * `distinct` otherwise, or a Map for many.
 */
export function writerTable(
  operands: readonly CallOperand[],
  distinct: readonly CallOperand[],
): ReadonlyMap<string, readonly WriterLink[]> {
  if (distinct.length === 0) return EMPTY;
  if (distinct.length > MAX_SCANNED) return asMap(distinct);
  return new WriterTable(distinct.length === operands.length ? operands : distinct.slice());
}

/** The writers of a call without references (shared: never changed). */
const EMPTY: ReadonlyMap<string, readonly WriterLink[]> = new Map();
