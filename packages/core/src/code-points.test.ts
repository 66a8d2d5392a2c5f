import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codePointLength, codePointSlice } from "./code-points.js";

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
