import { describe, expect, it } from "vitest";
import { withEcmaClasses } from "./ecma-pattern-classes.js";

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
    ];
    for (const [pattern, text] of cases)
      expect({ pattern, text, same: new RegExp(withEcmaClasses(pattern), "u").test(text) }).toEqual({
        pattern,
        text,
        same: new RegExp(pattern, "u").test(text),
      });
  });
});
