import { describe, expect, it } from "vitest";
import { growthExponent, predictRunMs } from "./predict-run.js";

describe("predictRunMs", () => {
  it("assumes linear growth from a single size (the floor)", () => {
    expect(predictRunMs([{ size: 1000, ms: 10 }], 10_000)).toBeCloseTo(100);
  });

  it("uses the growth measured between the last two sizes, at least linear", () => {
    expect(
      predictRunMs(
        [
          { size: 1000, ms: 100 },
          { size: 10_000, ms: 10_000 },
        ],
        100_000,
      ),
    ).toBeCloseTo(1_000_000);
    expect(
      predictRunMs(
        [
          { size: 1000, ms: 100 },
          { size: 10_000, ms: 500 },
        ],
        100_000,
      ),
    ).toBeCloseTo(5000);
  });

  it("knows nothing without history", () => {
    expect(predictRunMs([], 10)).toBeUndefined();
  });
});

describe("growthExponent", () => {
  it("ignores growth measured from a run too short to time reliably", () => {
    expect(
      growthExponent([
        { size: 1000, ms: 2 },
        { size: 10_000, ms: 100 },
      ]),
    ).toBe(1);
  });

  it("clamps to [1, 3]", () => {
    expect(
      growthExponent([
        { size: 1000, ms: 100 },
        { size: 10_000, ms: 10_000_000 },
      ]),
    ).toBe(3);
  });
});
