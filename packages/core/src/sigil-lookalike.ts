/** ASCII characters that do not stand for the dagger beside letters and digits: `_`, `$`, quotes, braces, brackets, dot. */
const NOT_LOOKALIKE = "_$\"'{}[].";

/**
 * The length of what stands for the dagger at `start` (decision 0097; the one rule of every layer,
 * decision 0108): the text `&dagger;` (an HTML entity), the text `\u2020` (an escape written twice), or
 * one character that is no ASCII letter, digit, `_`, `$`, quote, brace, bracket, dot, space or
 * control character (`‡`, `+`, `-`, `@`, `#`, `*`, `&`, `\`, a character outside ASCII); 0 otherwise,
 * also past the end. A text starting with a letter or digit costs three range comparisons.
 */
export function sigilLookalikeLength(text: string, start: number): number {
  const code = text.charCodeAt(start);
  // The common string starts with a letter or digit: a few comparisons, nothing else.
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39))
    return 0;
  if (code === 0x26) return text.startsWith("&dagger;", start) ? 8 : 1;
  if (code === 0x5c) return text.startsWith("\\u2020", start) ? 6 : 1;
  // NaN (past the end), a space or a control character: nothing stands there.
  if (!(code > 0x20) || NOT_LOOKALIKE.includes(text.charAt(start))) return 0;
  return code >= 0xd800 && code <= 0xdbff ? 2 : 1;
}
