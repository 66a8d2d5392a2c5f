/** Any UTF-16 surrogate: a string without one has as many characters as code units. */
const SURROGATE = /[\uD800-\uDFFF]/;

const isHigh = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * The number of characters (Unicode code points) of a string: a surrogate pair counts once, a lone
 * surrogate once. O(1) beyond a native scan for strings without surrogates.
 */
export function codePointLength(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let count = text.length;
  for (let at = 0; at + 1 < text.length; at++) {
    if (isHigh(text.charCodeAt(at)) && isLow(text.charCodeAt(at + 1))) {
      count--;
      at++;
    }
  }
  return count;
}

/** The UTF-16 index of the character (code point) `index` of `text`, from code unit `from` at character `start`. */
function unitIndex(text: string, index: number, from: number, start: number): number {
  let at = from;
  for (let character = start; character < index && at < text.length; character++)
    at += isHigh(text.charCodeAt(at)) && isLow(text.charCodeAt(at + 1)) ? 2 : 1;
  return at;
}

/**
 * Characters `offset` to `offset + limit` (code points, end excluded) of a string: a page never cuts a
 * surrogate pair in half.
 */
export function codePointSlice(text: string, offset: number, limit: number): string {
  if (!SURROGATE.test(text)) return text.slice(offset, offset + limit);
  const begin = unitIndex(text, offset, 0, 0);
  return text.slice(begin, unitIndex(text, offset + limit, begin, offset));
}

/** How many code units of `text` to keep within `max`: `max`, one fewer when that would split a surrogate pair. */
export function cutIndex(text: string, max: number): number {
  if (text.length <= max) return text.length;
  return max > 0 && isHigh(text.charCodeAt(max - 1)) ? max - 1 : max;
}

/** `text` within `max` code units (never half a surrogate pair), with `…` after it when it was longer. */
export function cutText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, cutIndex(text, max))}…`;
}
