import { describe, expect, it } from "vitest";
import { codePointLength } from "./code-points.js";
import { previewValue } from "./value-preview.js";

/** The characters shown and the `(+N chars)` count of a cut string preview. */
function cutOf(text: string): { shown: string; rest: number } {
  const match = /^"(.*)…\(\+(\d+) chars\)"$/su.exec(text);
  if (match === null) throw new Error(`not a cut string preview: ${text}`);
  return { shown: JSON.parse(`"${match[1]}"`) as string, rest: Number(match[2]) };
}

describe("previewValue: string cuts count characters and keep content (review 7 L1)", () => {
  it("counts what is left in characters (code points), as item counts do", () => {
    const { shown, rest } = cutOf(previewValue("😀".repeat(1000), { maxChars: 240 }).text);
    expect(shown.length).toBeGreaterThan(0);
    expect(codePointLength(shown) + rest).toBe(1000);
  });

  it.each([
    ["300 tabs", "\t".repeat(300)],
    ["500 line feeds", "\n".repeat(500)],
    ["300 lone surrogates", "\ud800".repeat(300)],
    ["a letter then 300 tabs", `a${"\t".repeat(300)}`],
  ])("%s: the preview shows some of them, within the budget, with a true count", (_, text) => {
    const preview = previewValue(text, { maxChars: 240 }).text;
    expect(preview.length).toBeLessThanOrEqual(240);
    const { shown, rest } = cutOf(preview);
    // at least half the room is used (a tab is 2 characters escaped, a lone surrogate 6)
    expect(shown.length * JSON.stringify(text[1]).slice(1, -1).length).toBeGreaterThan(100);
    expect(codePointLength(shown) + rest).toBe(codePointLength(text));
  });

  it("a wide object with long keys shows its first members, not {…}", () => {
    const wide = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`${"k".repeat(50)}${i}`, i]));
    const preview = previewValue(wide, { maxChars: 240 }).text;
    expect(preview.length).toBeLessThanOrEqual(240);
    expect(preview).not.toBe("{…}");
    expect(preview.startsWith('{"kkk')).toBe(true);
    expect(preview).toMatch(/":0,/);
  });
});
