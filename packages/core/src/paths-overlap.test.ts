import { describe, expect, it } from "vitest";
import { pathsOverlap } from "./paths-overlap.js";

describe("pathsOverlap", () => {
  it.each([
    [["a"], ["a"], true],
    [["a"], ["a", "b"], true],
    [["a", "b", 1], ["a"], true],
    [[], ["a"], true],
    [["a", 0], ["a", 0], true],
    [["a", -1], ["a", 3], true],
    [["a", 2], ["a", -2], true],
    [["a", 0], ["a", "0"], true],
    [["a"], ["b"], false],
    [["a", "b"], ["a", "c"], false],
    [["a", 0], ["a", 1], false],
    [["a", -1], ["a", "x"], false],
    [["ab"], ["a", "b"], false],
  ])("%j and %j → %s", (a, b, expected) => {
    expect(pathsOverlap(a, b)).toBe(expected);
    expect(pathsOverlap(b, a)).toBe(expected);
  });
});
