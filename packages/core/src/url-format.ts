/**
 * The `url` format of ajv-formats 3.0.1, checked in time linear in the string's length (decision 0105).
 *
 * ajv-formats' regex is `^SCHEME(?:USERINFO)?HOST_PORT(?:PATH)?$` (the four parts below, verbatim). Run as
 * one backtracking regex it tries every split of the userinfo against every `@` and every path end: cubic
 * (`"http://" + ":".repeat(k) + "@a.bc/".repeat(k / 6) + " "` takes 0.2 s at 2,083 characters). This
 * check accepts exactly the same strings:
 * - `SCHEME` is deterministic (`http`, `https` or `ftp`, then `://`), matched once.
 * - `USERINFO` (`\S+(?::\S*)?@`) is the same language as `\S+@` (`:` is a non-space): some `@` after a
 *   non-empty run of non-spaces.
 * - `HOST_PORT` holds no `@` and no `/`, and is followed by `/` or the end: it is exactly the text from the
 *   host's start to the next `/`. A host start is the scheme's end or one past a userinfo `@`; a start whose
 *   text up to the next `/` holds another `@` cannot match, so the texts tried never overlap.
 * - `PATH` is `/` then non-spaces up to the end: no whitespace after the host's `/`.
 * `HOST_PORT` on its own backtracks linearly (its labels are delimited by `.` and `-`; the IP branch is
 * bounded), so the whole check is linear.
 */

const SCHEME = String.raw`^(?:https?|ftp):\/\/`;
const USERINFO = String.raw`(?:\S+(?::\S*)?@)?`;
const HOST_PORT = String.raw`(?:(?!(?:10|127)(?:\.\d{1,3}){3})(?!(?:169\.254|192\.168)(?:\.\d{1,3}){2})(?!172\.(?:1[6-9]|2\d|3[0-1])(?:\.\d{1,3}){2})(?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{1,2}|2[0-4]\d|25[0-5])){2}(?:\.(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4]))|(?:(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)(?:\.(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)*(?:\.(?:[a-z\u{00a1}-\u{ffff}]{2,})))(?::\d{2,5})?`;
const PATH = String.raw`(?:\/[^\s]*)?$`;

/** The source of ajv-formats 3.0.1's `url` regex (flags `iu`), rebuilt from the parts checked separately. */
export const URL_FORMAT_SOURCE = SCHEME + USERINFO + HOST_PORT + PATH;

const SCHEME_REGEX = new RegExp(SCHEME, "iu");
const HOST_PORT_REGEX = new RegExp(`^${HOST_PORT}$`, "iu");
const WHITESPACE = /\s/u;
const WHITESPACE_ANYWHERE = /\s/gu;

/** Whether `value` is a `url` as ajv-formats 3.0.1 defines it, in time linear in its length. */
export function isUrlFormat(value: string): boolean {
  const scheme = SCHEME_REGEX.exec(value);
  if (scheme === null) return false;
  const start = scheme[0].length;
  const firstSpace = firstWhitespace(value, start);
  const lastSpace = lastWhitespace(value);
  let nextSlash = -1; // the first `/` at or after the host start tried (recomputed only when passed)
  let nextAt = -1;
  for (let host = start; host >= 0; ) {
    if (nextSlash < host) nextSlash = indexOrEnd(value, "/", host);
    if (nextAt < host) nextAt = indexOrEnd(value, "@", host);
    if (nextAt >= nextSlash && lastSpace < nextSlash && HOST_PORT_REGEX.test(value.slice(host, nextSlash))) {
      return true;
    }
    // the next userinfo `@`: after at least one non-space, before the first whitespace
    const at = value.indexOf("@", host === start ? start + 1 : host);
    host = at >= 0 && at < firstSpace ? at + 1 : -1;
  }
  return false;
}

/** The index of `search` at or after `from`, or the string's length. */
function indexOrEnd(value: string, search: string, from: number): number {
  const index = value.indexOf(search, from);
  return index < 0 ? value.length : index;
}

/** The index of the first whitespace at or after `from`, or the string's length. */
function firstWhitespace(value: string, from: number): number {
  const found = WHITESPACE.exec(value.slice(from));
  return found === null ? value.length : from + found.index;
}

/** The index of the last whitespace, or -1. */
function lastWhitespace(value: string): number {
  let last = -1;
  WHITESPACE_ANYWHERE.lastIndex = 0;
  for (let found = WHITESPACE_ANYWHERE.exec(value); found !== null; found = WHITESPACE_ANYWHERE.exec(value)) {
    last = found.index;
  }
  return last;
}
