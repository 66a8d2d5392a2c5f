import { describe, expect, it } from "vitest";
import { ecmaPatternError, withEcmaClasses } from "./ecma-pattern-classes.js";

const SPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";

describe("withEcmaClasses: ECMA-262's ., \\s and \\S for a linear-time engine (stop 39)", () => {
  it("writes . and \\s / \\S outside a class as ECMA-262's sets", () => {
    expect(withEcmaClasses("^.+$")).toBe("^[^\\n\\r\\u2028\\u2029]+$");
    expect(withEcmaClasses("^\\s$")).toBe(`^[${SPACE}]$`);
    expect(withEcmaClasses("^\\S+$")).toBe(`^[^${SPACE}]+$`);
  });

  it("leaves escapes, a class's own . and the rest as written", () => {
    for (const pattern of ["^a\\.b$", "[.]", "[^.x]+", "\\\\.", "\\d\\w\\p{L}", "^[a-z]{2,3}$", "[]", "[^]"])
      expect(withEcmaClasses(pattern)).toBe(pattern.replace(/\\\\\./, "\\\\[^\\n\\r\\u2028\\u2029]"));
    expect(withEcmaClasses("[\\s,]")).toBe(`[${SPACE},]`);
    // inside a class \S is written as the ranges of what it matches (review rev2)
    expect(withEcmaClasses("[\\S,]")).toMatch(/^\[\\x00-\\x08.*\\u\{10ffff\},\]$/);
    // a ] right after [ or [^ closes the class in ECMA-262
    expect(withEcmaClasses("[]a.")).toBe("[]a[^\\n\\r\\u2028\\u2029]");
  });

  it("matches what JavaScript's engine matches for the values that differed", () => {
    const cases: [string, string][] = [
      ["^.+$", "a\rb"],
      ["^.+$", "a\u2028b"],
      ["^.+$", "a\nb"],
      ["^.+$", "abc"],
      ["^\\S+$", "a\u00a0b"],
      ["^\\s$", "\u00a0"],
      ["^\\s$", "\v"],
      ["^[\\s]$", "\u3000"],
      ["^[^\\S\\n]+$", "\u00a0\v\u3000"],
      ["^[\\S,]+$", "a\u00a0"],
      ["^[\\S]$", "😀"],
      ["^\\uD83D\\uDE00$", "😀"],
      ["^[\\uD83D\\uDE00-\\uD83D\\uDE4F]$", "😁"],
      ["^[\\b]$", "\b"],
    ];
    for (const [pattern, text] of cases)
      expect({ pattern, text, same: new RegExp(withEcmaClasses(pattern), "u").test(text) }).toEqual({
        pattern,
        text,
        same: new RegExp(pattern, "u").test(text),
      });
  });

  it("writes a surrogate pair given as two \\u escapes as the one code point ECMA-262 reads (stop 40)", () => {
    expect(withEcmaClasses("^\\uD83D\\uDE00$")).toBe("^\\u{1f600}$");
    expect(withEcmaClasses("^[\\uD83D\\uDE00-\\uD83D\\uDE4F]+$")).toBe("^[\\u{1f600}-\\u{1f64f}]+$");
    expect(withEcmaClasses("\\ud83d\\ude00*")).toBe("\\u{1f600}*");
    // lone surrogates, a trail before a lead, a \u{…} escape and an escaped backslash stay as written
    for (const pattern of [
      "\\uD83D",
      "\\uDE00\\uD83D",
      "\\uD83D\\u0041",
      "\\u{D83D}\\u{DE00}",
      "\\\\uD83D\\uDE00",
    ])
      expect(withEcmaClasses(pattern)).toBe(pattern);
  });

  it("writes a class's \\b, a backspace in ECMA-262 (RE2 refuses it there), as \\x08", () => {
    expect(withEcmaClasses("^[\\b]$")).toBe("^[\\x08]$");
    expect(withEcmaClasses("\\ba\\b")).toBe("\\ba\\b");
  });
});

describe("ecmaPatternError: what JavaScript refuses with the u flag, which RE2 may take (stop 40)", () => {
  it("names the pattern and V8's reason", () => {
    expect(ecmaPatternError("^x\\-$")).toMatch(
      /^the pattern "\^x\\\\-\$" is not a valid regular expression \(Invalid escape\): /,
    );
    for (const pattern of ["]", "{", "a{,3}", "\\x{41}", "(?i)a", "[[:alpha:]]", "\\A", "\\pL"])
      expect(ecmaPatternError(pattern)).toContain(`the pattern ${JSON.stringify(pattern)} is not a valid`);
  });

  it("is undefined for valid patterns, a class's \\- and a backreference included", () => {
    for (const pattern of ["", "^[a-z\\-]+$", "\\{\\}\\]", "^\\p{L}$", "(a)\\1", "\\uD83D\\uDE00", "(?=a)"])
      expect(ecmaPatternError(pattern)).toBeUndefined();
  });
});
