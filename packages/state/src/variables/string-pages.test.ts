import { codePointLength, codePointSlice } from "@obelisk/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CodePointPage, codePointPage, createCodePointPager } from "./string-pages.js";

/** The page as getValue cut it before stop 28: counted and sliced from the string's start each time. */
function oldPage(text: string, offset: number | undefined, limit: number | undefined): CodePointPage {
  const total = codePointLength(text);
  const start = Math.min(offset ?? 0, total);
  const count = Math.min(limit ?? total - start, total - start);
  return { text: codePointSlice(text, start, count), offset: start, limit: count, total };
}

/** Pairs, lone high and low surrogates (which may meet and make a pair), one- and two-byte characters. */
const pieces = fc.constantFrom("a", "é", "✓", "😀", "\uDBFF\uDFFF", "\uD800", "\uDBFF", "\uDC00", "\uDFFF");
const text = fc.string({ unit: pieces, maxLength: 60 });
const position = fc.option(fc.nat(70), { nil: undefined });

describe("codePointPage: a page of a string by characters (code points)", () => {
  it("answers what counting from the string's start answered, whatever the strings and pages asked", () => {
    fc.assert(
      fc.property(
        fc.record({
          indexedFrom: fc.nat(20),
          stride: fc.integer({ min: 1, max: 5 }),
          kept: fc.integer({ min: 1, max: 2 }),
        }),
        fc.array(text, { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(fc.nat(2), position, position), { minLength: 1, maxLength: 8 }),
        (settings, texts, asked) => {
          const page = createCodePointPager(settings);
          for (const [which, offset, limit] of asked) {
            const value = texts[which % texts.length] as string;
            expect(page(value, offset, limit)).toEqual(oldPage(value, offset, limit));
          }
        },
      ),
      { numRuns: 500, seed: 20261126 },
    );
  });

  it("pages a long string with pairs, and a long one without, as counting from the start does", () => {
    const withPairs = "é✓x😀\uD800".repeat(5_000);
    const withoutPairs = "é✓x\uDC00y".repeat(5_000);
    for (const value of [withPairs, withoutPairs, withPairs]) {
      for (const [offset, limit] of [
        [0, 10],
        [1_023, 3],
        [1_024, 2_049],
        [24_990, 100],
        [25_000, 1],
        [30_000, undefined],
        [undefined, undefined],
      ] as const) {
        expect(codePointPage(value, offset, limit)).toEqual(oldPage(value, offset, limit));
      }
    }
  });
});
