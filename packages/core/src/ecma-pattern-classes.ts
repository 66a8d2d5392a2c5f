import { re2PropertyEscape } from "./ecma-property-escapes.js";

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

/** `\uXXXX` with four hex digits, and the code unit they write. */
const UNICODE_ESCAPE = /^\\u([0-9A-Fa-f]{4})/;

/** The code unit of the `\uXXXX` escape at `index` of `pattern`, or undefined. */
function escapedUnit(pattern: string, index: number): number | undefined {
  const found = UNICODE_ESCAPE.exec(pattern.slice(index, index + 6));
  return found === null ? undefined : Number.parseInt(found[1] as string, 16);
}

/**
 * The code point of a surrogate pair written as two `\u` escapes at `index` (`\uD83D\uDE00`, as zod and
 * JSON Schema authors write astral characters), or undefined: with the `u` flag ECMA-262 reads the pair as
 * one code point, where re2js would read two lone surrogates that no well-formed value contains.
 */
function escapedPair(pattern: string, index: number): number | undefined {
  const lead = escapedUnit(pattern, index);
  if (lead === undefined || lead < 0xd800 || lead > 0xdbff) return undefined;
  const trail = escapedUnit(pattern, index + 6);
  if (trail === undefined || trail < 0xdc00 || trail > 0xdfff) return undefined;
  return (lead - 0xd800) * 0x400 + (trail - 0xdc00) + 0x10000;
}

/**
 * A JSON Schema `pattern` (ECMA-262 syntax, `u` flag) with `.`, `\s` and `\S` written as the sets ECMA-262
 * gives them, for a linear-time engine (re2js) whose own `.` also matches `\r`, U+2028 and U+2029 and whose
 * `\s` misses `\v` and the Unicode spaces (decision 0057); inside a character class `\s` and `\S` become
 * their code point ranges and `\b` (a backspace there) `\x08`. A surrogate pair written as two `\u`
 * escapes becomes the one code point ECMA-262 reads (`\u{1F600}`: stop 40); a lone surrogate escape stays
 * (both engines match it against an unpaired surrogate of the value). A property escape RE2 names otherwise
 * is written RE2's way (`\p{Letter}`, `\p{Script=Greek}`: `re2PropertyEscape`). The rest is left as written.
 */
export function withEcmaClasses(pattern: string): string {
  let out = "";
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === "\\" && index + 1 < pattern.length) {
      const pair = escapedPair(pattern, index);
      if (pair !== undefined) {
        out += `\\u{${pair.toString(16)}}`;
        index += 11;
        continue;
      }
      const property = re2PropertyEscape(pattern, index, inClass);
      if (property !== undefined) {
        out += property.text;
        index = property.end;
        continue;
      }
      const next = pattern[index + 1] as string;
      index++;
      if (next === "s") out += inClass ? ECMA_SPACE : `[${ECMA_SPACE}]`;
      else if (next === "S") out += inClass ? ECMA_NOT_SPACE : `[^${ECMA_SPACE}]`;
      else if (next === "b" && inClass) out += "\\x08";
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

/**
 * What is wrong with `pattern` as a JSON Schema pattern — an ECMA-262 regular expression with the `u` flag,
 * as ajv compiles it — when JavaScript refuses it (V8's reason, e.g. `Invalid escape`, and what is allowed),
 * or undefined when it compiles. RE2 takes many such patterns (`\-`, a lone `]` or `{`, `\x{41}`, `(?i)`)
 * with a meaning of its own, so the linear-time engines refuse them first (stop 40).
 */
export function ecmaPatternError(pattern: string): string | undefined {
  try {
    new RegExp(pattern, "u");
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // V8: "Invalid regular expression: /<pattern>/u: <reason>"
    const reason = /: ([^:]*)$/.exec(message)?.[1] ?? message;
    return (
      `the pattern ${JSON.stringify(pattern)} is not a valid regular expression (${reason}): JSON Schema ` +
      'patterns are ECMA-262 regular expressions with the u flag (JavaScript\'s new RegExp(pattern, "u")): of ' +
      "the punctuation only ^ $ \\ . * + ? ( ) [ ] { } | / may be escaped (and - inside a class), and a " +
      "literal { } ] is written \\{ \\} \\]"
    );
  }
}
