import { describe, expect, it } from "vitest";
import { applyOutput } from "./apply-output.js";

describe("a write past an array's end says what a write may do (review s33r, 'no hint' list)", () => {
  it.each<[unknown, string]>([
    [
      [],
      'cannot write at index 5 of an array of length 0: the array is empty: write at index 0, or append with _outputMethod "push"',
    ],
    [
      [1, 2],
      'cannot write at index 5 of an array of length 2: an index replaces an item (0 to 1) or adds one at the end (2), or append with _outputMethod "push"',
    ],
  ])("%j", (list, message) => {
    const result = applyOutput({ list } as never, ["list", 5], "set", "x");
    expect(result).toMatchObject({ ok: false, message });
  });
});
