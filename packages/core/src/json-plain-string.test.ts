import { describe, expect, it } from "vitest";
import { needsNoJsonEscape } from "./json-plain-string.js";

describe("needsNoJsonEscape", () => {
  it("is true exactly when JSON.stringify writes the text as it is", () => {
    for (const text of [
      "",
      "plain text †state.a",
      "é",
      'a"b',
      "a\\b",
      "tab\t",
      "\u0000",
      "\u{1F600}",
      "\ud800",
    ])
      expect(needsNoJsonEscape(text)).toBe(
        JSON.stringify(text) === `"${text}"` && !/[\ud800-\udfff]/.test(text),
      );
  });

  it("looks only at the first length characters when given a length", () => {
    expect(needsNoJsonEscape('ab"c', 2)).toBe(true);
    expect(needsNoJsonEscape('ab"c', 3)).toBe(false);
  });
});
