/** Character codes used by the plan-language scanners. */
export const CHAR = {
  dagger: 0x2020,
  dot: 0x2e,
  openBracket: 0x5b,
  closeBracket: 0x5d,
  quote: 0x22,
  backslash: 0x5c,
  minus: 0x2d,
  zero: 0x30,
  nine: 0x39,
  dollar: 0x24,
  openBrace: 0x7b,
  closeBrace: 0x7d,
  pipe: 0x7c,
  ampersand: 0x26,
  lessThan: 0x3c,
  greaterThan: 0x3e,
  star: 0x2a,
} as const;

const NAME_START = 1;
const NAME_PART = 2;

/** ASCII lookup table: bit 1 = may start a name, bit 2 = may continue a name. */
const NAME_TABLE: Uint8Array = (() => {
  const table = new Uint8Array(128);
  const mark = (from: number, to: number, bits: number) => {
    for (let code = from; code <= to; code++) table[code] = bits;
  };
  mark(0x61, 0x7a, NAME_START | NAME_PART);
  mark(0x41, 0x5a, NAME_START | NAME_PART);
  mark(0x5f, 0x5f, NAME_START | NAME_PART);
  mark(CHAR.dollar, CHAR.dollar, NAME_START | NAME_PART);
  mark(CHAR.zero, CHAR.nine, NAME_PART);
  mark(CHAR.minus, CHAR.minus, NAME_PART);
  return table;
})();

/** True for a character that may start a `name` (`[A-Za-z_$]`). */
export function isNameStartCode(code: number): boolean {
  return code < 128 && ((NAME_TABLE[code] as number) & NAME_START) !== 0;
}

/** True for a character that may continue a `name` (`[A-Za-z0-9_$-]`). */
export function isNameCode(code: number): boolean {
  return code < 128 && ((NAME_TABLE[code] as number) & NAME_PART) !== 0;
}

/** True for a decimal digit. */
export function isDigitCode(code: number): boolean {
  return code >= CHAR.zero && code <= CHAR.nine;
}

/** True for whitespace allowed around operators (space, tab, line feed, carriage return). */
export function isSpaceCode(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** True when `text` matches the reference `name` grammar `[A-Za-z_$][A-Za-z0-9_$-]*`. */
export function isName(text: string): boolean {
  if (text.length === 0 || !isNameStartCode(text.charCodeAt(0))) return false;
  for (let i = 1; i < text.length; i++) if (!isNameCode(text.charCodeAt(i))) return false;
  return true;
}
