import { describe, expect, it } from "vitest";
import { withEcmaClasses } from "./ecma-pattern-classes.js";

describe("property escapes written RE2's way (stop 40): the forms ECMA-262 takes and RE2 does not", () => {
  it("long and prefixed General_Category names become RE2's short ones; names RE2 shares stay", () => {
    expect(withEcmaClasses("^\\p{Letter}+$")).toBe("^\\p{L}+$");
    expect(withEcmaClasses("\\P{Uppercase_Letter}")).toBe("\\P{Lu}");
    expect(withEcmaClasses("\\p{gc=Nd}\\p{General_Category=Decimal_Number}\\p{digit}")).toBe(
      "\\p{Nd}\\p{Nd}\\p{Nd}",
    );
    expect(withEcmaClasses("[\\p{Letter}_]")).toBe("[\\p{L}_]");
    for (const pattern of ["\\p{L}", "\\p{Emoji}", "\\p{Extended_Pictographic}", "\\\\p{Letter}", "\\p"])
      expect(withEcmaClasses(pattern)).toBe(pattern);
  });

  it("Script= and sc= become RE2's bare script name; Script_Extensions stays (RE2 has none)", () => {
    expect(withEcmaClasses("^\\p{Script=Greek}+$")).toBe("^\\p{Greek}+$");
    expect(withEcmaClasses("\\P{sc=Latin}")).toBe("\\P{Latin}");
    expect(withEcmaClasses("\\p{scx=Greek}")).toBe("\\p{scx=Greek}");
  });

  it("ASCII becomes its range, in and out of a class, matching what JavaScript matches", () => {
    expect(withEcmaClasses("^\\p{ASCII}$")).toBe("^[\\x00-\\x7f]$");
    expect(withEcmaClasses("^\\P{ASCII}$")).toBe("^[^\\x00-\\x7f]$");
    expect(withEcmaClasses("[\\P{ASCII}a]")).toBe("[\\x80-\\u{10ffff}a]");
    for (const [pattern, text] of [
      ["^[\\P{ASCII}a]+$", "aé😀"],
      ["^\\P{ASCII}$", "a"],
      ["^\\p{Letter}+$", "Ωa"],
    ] as const)
      expect(new RegExp(withEcmaClasses(pattern), "u").test(text)).toBe(new RegExp(pattern, "u").test(text));
  });
});
