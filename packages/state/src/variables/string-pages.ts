import { codePointLength, codePointSlice } from "@obelisk/core";

/** Characters (code points) `offset` to `offset + limit` of a string of `total` characters. */
export interface CodePointPage {
  readonly text: string;
  readonly offset: number;
  readonly limit: number;
  readonly total: number;
}

/** When a string is indexed, how finely, and how many indexes are kept. */
interface PagerSettings {
  /** Strings from this many code units are indexed; shorter ones are counted on each page. */
  readonly indexedFrom: number;
  /** Characters between two checkpoints: a page walks at most this many to reach its start or its end. */
  readonly stride: number;
  /** How many strings' indexes are kept (the least recently paged goes first). */
  readonly kept: number;
}

/**
 * The defaults: V8 hashes a string over 16,383 units by its length alone, so finding the index of the same
 * string object scans nothing (an equal copy, as a store may hand out, is compared once: linear, ~1 ms at
 * 4M characters, not the count of pairs); a checkpoint every 1,024 characters is 4 bytes per 1,024; the
 * last 4 strings are kept.
 */
const DEFAULTS: PagerSettings = { indexedFrom: 16_384, stride: 1_024, kept: 4 };

/** A long string's characters: how many, and the code unit where every `stride`-th one starts. */
interface CodePointIndex {
  readonly total: number;
  /** Absent when no surrogate pair occurs: then a character is a code unit. */
  readonly starts: Uint32Array | undefined;
}

/** True when a surrogate pair (one character) starts at unit `at` (past the end: NaN, false). */
const pairAt = (text: string, at: number): boolean => {
  const unit = text.charCodeAt(at);
  if (unit < 0xd800 || unit > 0xdbff) return false;
  const next = text.charCodeAt(at + 1);
  return next >= 0xdc00 && next <= 0xdfff;
};

/** Any UTF-16 surrogate: a string without one has as many characters as code units. */
const SURROGATE = /[\uD800-\uDFFF]/;

/** One pass over `text`: its characters and the unit each `stride`-th one starts at. */
function buildIndex(text: string, stride: number): CodePointIndex {
  // a native scan, and none for a one-byte string (it cannot hold a surrogate)
  if (!SURROGATE.test(text)) return { total: text.length, starts: undefined };
  const starts = new Uint32Array(Math.floor(text.length / stride) + 1);
  let total = 0;
  let at = 0;
  for (let untilCheckpoint = 0; at < text.length; total++, untilCheckpoint--) {
    if (untilCheckpoint === 0) {
      starts[total / stride] = at;
      untilCheckpoint = stride;
    }
    at += pairAt(text, at) ? 2 : 1;
  }
  // the end is a checkpoint too when the total is a multiple of the stride (a page may end there)
  if (total % stride === 0) starts[total / stride] = at;
  return { total, starts: total === text.length ? undefined : starts };
}

/** The code unit where character `character` (at most the total) starts: from its checkpoint on. */
function unitIndex(text: string, starts: Uint32Array, stride: number, character: number): number {
  const checkpoint = Math.floor(character / stride);
  let at = starts[checkpoint] as number;
  for (let walked = checkpoint * stride; walked < character; walked++) at += pairAt(text, at) ? 2 : 1;
  return at;
}

/**
 * A pager with its own kept indexes (tests give small settings; {@link codePointPage} is the one in use).
 * The answer is the same as counting the string from its start: a surrogate pair is one character, a lone
 * surrogate one, and a page never cuts a pair in half.
 */
export function createCodePointPager(
  settings: PagerSettings = DEFAULTS,
): (text: string, offset?: number, limit?: number) => CodePointPage {
  const { indexedFrom, stride, kept } = settings;
  // a Map in use order: a string is its own key (a primitive cannot key a WeakMap), so a kept index holds
  // its string alive until `kept` other long strings have been paged
  const indexes = new Map<string, CodePointIndex>();
  const indexFor = (text: string): CodePointIndex => {
    let index = indexes.get(text);
    if (index !== undefined) indexes.delete(text);
    else {
      index = buildIndex(text, stride);
      if (indexes.size >= kept) indexes.delete(indexes.keys().next().value as string);
    }
    indexes.set(text, index);
    return index;
  };
  return (text, offset = 0, limit) => {
    const index = text.length < indexedFrom ? undefined : indexFor(text);
    const total = index === undefined ? codePointLength(text) : index.total;
    const start = Math.min(offset, total);
    const count = Math.min(limit ?? total - start, total - start);
    let page: string;
    if (index === undefined) page = codePointSlice(text, start, count);
    else if (index.starts === undefined) page = text.slice(start, start + count);
    else {
      const begin = unitIndex(text, index.starts, stride, start);
      page = text.slice(begin, unitIndex(text, index.starts, stride, start + count));
    }
    return { text: page, offset: start, limit: count, total };
  };
}

/**
 * One page of a string by characters (code points), `offset` and `limit` clamped to what there is (no
 * `limit`: the rest). A string of 16,384 code units or more is indexed on its first page (one pass: a
 * checkpoint every 1,024 characters), and the indexes of the last 4 such strings are kept, so a later page
 * costs its own characters, not the string's length; a shorter one is counted on each page.
 */
export const codePointPage: (text: string, offset?: number, limit?: number) => CodePointPage =
  createCodePointPager();
