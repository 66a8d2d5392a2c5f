/**
 * The characters ECMA-262's `\s` matches (WhiteSpace and LineTerminator), written for a character class.
 * RE2's `\s` is `[\t\n\f\r ]`: no `\v`, no Unicode spaces.
 */
const ECMA_SPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
/** Every code point ECMA-262's `\S` matches, written for a character class: the complement of `ECMA_SPACE`. */
const ECMA_NOT_SPACE =
  "\\x00-\\x08\\x0e-\\x1f\\x21-\\x9f\\xa1-\\u167f\\u1681-\\u1fff\\u200b-\\u2027\\u202a-\\u202e\\u2030-\\u205e\\u2060-\\u2fff\\u3001-\\ufefe\\uff00-\\u{10ffff}";
/** ECMA-262's `.` without the `s` flag: every character but the line terminators (RE2's `.` excludes `\n` only). */
const ECMA_DOT = "[^\\n\\r\\u2028\\u2029]";

/**
 * A JSON Schema `pattern` (ECMA-262 syntax) with `.`, `\s` and `\S` written as the sets ECMA-262 gives them,
 * for a linear-time engine (re2js) whose own `.` also matches `\r`, U+2028 and U+2029 and whose `\s` misses
 * `\v` and the Unicode spaces (decision 0057); inside a character class `\s` and `\S` become their code
 * point ranges. Everything else is left as written.
 */
export function withEcmaClasses(pattern: string): string {
  let out = "";
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === "\\" && index + 1 < pattern.length) {
      const next = pattern[index + 1] as string;
      index++;
      if (next === "s") out += inClass ? ECMA_SPACE : `[${ECMA_SPACE}]`;
      else if (next === "S") out += inClass ? ECMA_NOT_SPACE : `[^${ECMA_SPACE}]`;
      else out += char + next;
      continue;
    }
    if (inClass) {
      if (char === "]") inClass = false;
      out += char;
      continue;
    }
    if (char === "[") {
      inClass = true;
      out += char;
      // `]` right after `[` or `[^` closes the class in ECMA-262 (`[]` matches nothing, `[^]` anything)
      if (pattern[index + 1] === "^") out += pattern[++index];
      if (pattern[index + 1] === "]") {
        out += pattern[++index];
        inClass = false;
      }
      continue;
    }
    out += char === "." ? ECMA_DOT : char;
  }
  return out;
}
