import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, OPEN_BRACE, OPEN_BRACKET, QUOTE } from "./json-char-codes.js";

/** What {@link ValueEndScanner.step} found. */
export const INSIDE = -1;
/** The character ended the value (it is its last). */
export const ENDED_WITH = 1;
/** The value ended just before the character (a number or literal, ended by punctuation or a blank). */
export const ENDED_BEFORE = 0;
/** A closing bracket that does not match the open one. */
const MISMATCH = 2;
/** One more level of nesting than allowed. */
export const TOO_DEEP = 3;

/** Characters that end a number or literal (`true`, `null`): blanks and punctuation. */
function endsScalar(code: number): boolean {
  return (
    code === 0x20 ||
    code === 0x0a ||
    code === 0x0d ||
    code === 0x09 ||
    code === 0x2c ||
    code === 0x3a ||
    code === QUOTE ||
    code === OPEN_BRACKET ||
    code === OPEN_BRACE ||
    code === CLOSE_BRACKET ||
    code === CLOSE_BRACE
  );
}

/**
 * Finds where one JSON value ends in text fed a character at a time: the nesting of brackets, strings and
 * their escapes (a `\"` does not end a string; `\uXXXX` holds no quote). It does not check the value's
 * syntax: the value's text is read by a JSON reader once it ends.
 */
export class ValueEndScanner {
  private closers: number[] = [];
  private inString = false;
  private escaped = false;
  private scalar = false;
  private text = false;
  private maxDepth = 0;

  /**
   * Starts a value at its first character (not a blank), which may hold `maxDepth` levels of nesting (the
   * document's limit less the depth the value is at): INSIDE, or TOO_DEEP when its first bracket is one too many.
   */
  begin(code: number, maxDepth: number): number {
    this.maxDepth = maxDepth;
    this.inString = code === QUOTE;
    this.text = this.inString;
    this.escaped = false;
    this.closers = code === OPEN_BRACE || code === OPEN_BRACKET ? [code + 2] : [];
    this.scalar = !this.inString && this.closers.length === 0;
    return this.closers.length > maxDepth ? TOO_DEEP : INSIDE;
  }

  /** Steps over the next character: INSIDE, ENDED_WITH, ENDED_BEFORE, MISMATCH or TOO_DEEP. */
  step(code: number): number {
    if (this.scalar) return endsScalar(code) ? ENDED_BEFORE : INSIDE;
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (code === BACKSLASH) this.escaped = true;
      else if (code === QUOTE) {
        this.inString = false;
        if (this.text) return ENDED_WITH;
      }
      return INSIDE;
    }
    if (code === QUOTE) this.inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      this.closers.push(code + 2);
      if (this.closers.length > this.maxDepth) return TOO_DEEP;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      if (this.closers.pop() !== code) return MISMATCH;
      if (this.closers.length === 0) return ENDED_WITH;
    }
    return INSIDE;
  }
}
