/**
 * A preview shortened to its keys: when a summary has room for only a few characters of a preview, the
 * strings that are values are cut first, so the key names (what a model needs to write
 * `†state.results[0].url`) stay visible — `[{"title":"rust…","url":"http…","snippet":"…"},…+29]` rather
 * than `[{"title":"rust result …` (review s40 r1 #8).
 */

/** The `…(+N chars)` note a stored preview puts at the end of a string it cut. */
const CUT_NOTE = /…\(\+\d+ chars?\)$/;

/** The end of the string token that starts at `start` (a `"`): the index after its closing quote. */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  while (at < text.length) {
    const char = text.charCodeAt(at);
    if (char === 0x5c) at += 2;
    else if (char === 0x22) return at + 1;
    else at += 1;
  }
  return text.length;
}

/** True when the next character after `at` that is not a space is `:` (the string was a key). */
function isKey(text: string, at: number): boolean {
  let next = at;
  while (next < text.length && text.charCodeAt(next) === 0x20) next += 1;
  return text.charCodeAt(next) === 0x3a;
}

/** The length of the unit of string content at `at`: an escape, a surrogate pair, or one character. */
function unitLength(content: string, at: number): number {
  const char = content.charCodeAt(at);
  if (char === 0x5c) return content.charCodeAt(at + 1) === 0x75 ? 6 : 2;
  return char >= 0xd800 && char <= 0xdbff ? 2 : 1;
}

/** A string token's content cut to `keep` characters (whole escapes and pairs), with `…` when cut. */
function cutValue(token: string, keep: number): string {
  const closed = token.length > 1 && token.endsWith('"');
  const content = token.slice(1, closed ? -1 : undefined).replace(CUT_NOTE, "…");
  if (content.length <= keep) return `"${content}"`;
  let end = 0;
  while (end < content.length) {
    const next = end + unitLength(content, end);
    if (next > keep) break;
    end = next;
  }
  return `"${content.slice(0, end)}…"`;
}

/** The preview with each value string cut to `keep` characters; keys and everything else kept. */
function withValuesCut(preview: string, keep: number): string {
  let out = "";
  let at = 0;
  while (at < preview.length) {
    const quote = preview.indexOf('"', at);
    if (quote === -1) return out + preview.slice(at);
    const end = stringEnd(preview, quote);
    const token = preview.slice(quote, end);
    out += preview.slice(at, quote) + (isKey(preview, end) ? token : cutValue(token, keep));
    at = end;
  }
  return out;
}

/** The end of the preview's last key (the index after its closing quote), or -1 when it has none. */
function lastKeyEnd(preview: string): number {
  let last = -1;
  let at = preview.indexOf('"');
  while (at !== -1) {
    const end = stringEnd(preview, at);
    if (isKey(preview, end)) last = end;
    at = preview.indexOf('"', end);
  }
  return last;
}

/**
 * The preview within `max` characters with its value strings cut to the most characters that fit, every key
 * kept; undefined when cutting the text at `max` already shows every key (a string, a list of numbers, a
 * short object: the plain cut keeps more), or when even values cut to nothing do not fit.
 */
export function previewSkeleton(preview: string, max: number): string | undefined {
  if (lastKeyEnd(preview) <= max - 1) return undefined;
  let fits = withValuesCut(preview, 0);
  if (fits.length > max) return undefined;
  // the longest cut that fits: its length grows with `keep`, so a binary search (≤ 8 passes of ≤ 240 chars)
  let low = 0;
  let high = preview.length;
  while (low < high) {
    const keep = Math.ceil((low + high) / 2);
    const shortened = withValuesCut(preview, keep);
    if (shortened.length <= max) {
      low = keep;
      fits = shortened;
    } else high = keep - 1;
  }
  return fits;
}
