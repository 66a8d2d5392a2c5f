import { CLOSE_BRACE, CLOSE_BRACKET, OPEN_BRACE, QUOTE } from "./json-char-codes.js";

/** UTF-16 code unit of a backtick, of which three begin a Markdown code fence line. */
export const BACKTICK = 0x60;

/** Whether `code` is a blank of JSON's grammar: space, line feed, carriage return or tab. */
export const isBlank = (code: number): boolean =>
  code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/**
 * Whether the bracket `root` after prose, followed by the character `next` (the first after it that is not
 * blank), can open a plan: an array of calls (`{`) or an empty one, an object whose first member is named in
 * quotes or an empty one. "[step 1]", "[1]" and "{user}" in prose are not.
 */
export function opensPlan(root: number, next: number): boolean {
  return root === OPEN_BRACE
    ? next === QUOTE || next === CLOSE_BRACE
    : next === OPEN_BRACE || next === CLOSE_BRACKET;
}
