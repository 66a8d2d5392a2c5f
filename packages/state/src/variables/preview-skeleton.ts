/**
 * A preview shortened to its keys: when a summary has room for only a few characters of a preview, the
 * strings that are values are cut first, so the key names (what a model needs to write
 * `†state.results[0].url`) stay visible — `[{"title":"rust…","url":"http…","snippet":"…"},…+29]` rather
 * than `[{"title":"rust result …` (review s40 r1 #8).
 */

/** Characters kept of each value string, tried in turn until the preview fits. */
const VALUE_CHARS = [24, 12, 6, 0] as const;

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

/**
 * The preview within `max` characters with as much of its value strings as fits, keys kept; undefined
 * when it has no key or still does not fit once every value string is cut (the caller cuts the text).
 */
export function previewSkeleton(preview: string, max: number): string | undefined {
  if (!preview.includes(":")) return undefined;
  for (const keep of VALUE_CHARS) {
    const shortened = withValuesCut(preview, keep);
    if (shortened.length <= max) return shortened;
  }
  return undefined;
}
