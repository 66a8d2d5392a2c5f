/**
 * True when the first `length` characters of `text` (all of it by default) need no JSON escape and hold
 * no surrogate: `JSON.stringify` writes them as they are between its quotes.
 */
export function needsNoJsonEscape(text: string, length = text.length): boolean {
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) return false;
  }
  return true;
}
