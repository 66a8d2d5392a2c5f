/**
 * The characters ECMA-262's `\s` matches (WhiteSpace and LineTerminator), written for a character class.
 * RE2's `\s` is `[\t\n\f\r ]`: no `\v`, no Unicode spaces.
 */
const ECMA_SPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
/** ECMA-262's `.` without the `s` flag: every character but the line terminators (RE2's `.` excludes `\n` only). */
const ECMA_DOT = "[^\\n\\r\\u2028\\u2029]";

/**
 * A JSON Schema `pattern` (ECMA-262 syntax) with `.`, `\s` and `\S` written as the sets ECMA-262 gives them,
 * for a linear-time engine (re2js) whose own `.` also matches `\r`, U+2028 and U+2029 and whose `\s` misses
 * `\v` and the Unicode spaces (decision 0057). Everything else is left as written, including `\S` inside a
 * character class (a negated set cannot be written inside another), which keeps RE2's meaning.
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
      else if (next === "S" && !inClass) out += `[^${ECMA_SPACE}]`;
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
