import { describe, expect, it } from "vitest";
import { median, round } from "./stats.js";

describe("median (every figure the bench reports is a median of its samples)", () => {
  it("takes the middle sample of an odd count, whatever the order", () => {
    expect(median([9, 1, 5, 7, 3])).toBe(5);
    expect(median([100, 1, 2])).toBe(2);
  });

  it("takes the mean of the two middle samples of an even count", () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("is NaN with no samples, and leaves its argument unsorted", () => {
    expect(median([])).toBeNaN();
    const samples = [3, 1, 2];
    median(samples);
    expect(samples).toEqual([3, 1, 2]);
  });
});

describe("round", () => {
  it("keeps significant digits", () => {
    expect(round(1234.5678)).toBe(1230);
    expect(round(0.012345, 2)).toBe(0.012);
    expect(round(0)).toBe(0);
  });
});
