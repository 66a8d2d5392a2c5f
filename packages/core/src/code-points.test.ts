import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codePointLength, codePointSlice, cutIndex, cutText } from "./code-points.js";

describe("characters are code points (SPEC §8: string lengths labelled as characters)", () => {
  it("counts a surrogate pair once and a lone surrogate once", () => {
    expect(codePointLength("naïve")).toBe(5);
    expect(codePointLength("😀😀😀 naïve")).toBe(9);
    expect(codePointLength("a\ud83d")).toBe(2);
    expect(codePointLength("\ude00\ud83d")).toBe(2);
    expect(codePointLength("")).toBe(0);
  });

  it("pages by characters and never splits a pair", () => {
    const text = "😀😀😀 naïve";
    expect(codePointSlice(text, 1, 2)).toBe("😀😀");
    expect(codePointSlice(text, 3, 100)).toBe(" naïve");
    expect(codePointSlice(text, 9, 5)).toBe("");
    expect(codePointSlice("plain", 1, 3)).toBe("lai");
  });

  it("agrees with iterating the string by code points", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.nat(20), fc.nat(20), (text, offset, limit) => {
        const points = [...text];
        expect(codePointLength(text)).toBe(points.length);
        expect(codePointSlice(text, offset, limit)).toBe(points.slice(offset, offset + limit).join(""));
      }),
      { seed: 20_240_601, numRuns: 500 },
    );
  });
});

describe("cutText / cutIndex", () => {
  it("keeps short text whole and cuts long text at max units, one fewer rather than split a pair", () => {
    expect(cutText("abc", 3)).toBe("abc");
    expect(cutText("abcd", 3)).toBe("abc…");
    expect(cutText("ab😀c", 3)).toBe("ab…");
    expect(cutIndex("ab😀c", 3)).toBe(2);
    expect(cutIndex("ab😀c", 4)).toBe(4);
    expect(cutIndex("ab", 5)).toBe(2);
  });
});
