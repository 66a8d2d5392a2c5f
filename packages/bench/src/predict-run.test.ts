import { describe, expect, it } from "vitest";
import { predictRunMs } from "./predict-run.js";

describe("predictRunMs", () => {
  it("assumes quadratic growth from a single size", () => {
    expect(predictRunMs([{ size: 1000, ms: 10 }], 10_000)).toBeCloseTo(1000);
  });

  it("uses the growth measured between the last two sizes, at least linear", () => {
    expect(
      predictRunMs(
        [
          { size: 1000, ms: 10 },
          { size: 10_000, ms: 100 },
        ],
        100_000,
      ),
    ).toBeCloseTo(1000);
    expect(
      predictRunMs(
        [
          { size: 1000, ms: 10 },
          { size: 10_000, ms: 50 },
        ],
        100_000,
      ),
    ).toBeCloseTo(500);
  });

  it("knows nothing without history", () => {
    expect(predictRunMs([], 10)).toBeUndefined();
  });
});
