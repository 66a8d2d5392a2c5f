import { describe, expect, it } from "vitest";
import { skipRun } from "./skip-run.js";

const config = {
  caps: { slow: { maxSize: 1_000, reason: "capped" } },
  maxRunMs: 3_000,
};

describe("skipRun", () => {
  it("skips a capped engine above its cap, with the cap's reason", () => {
    expect(skipRun("slow", 10_000, config, [])).toEqual({ reason: "capped" });
    expect(skipRun("slow", 1_000, config, [])).toBeUndefined();
  });

  it("runs an engine with no history", () => {
    expect(skipRun("fast", 100_000, config, [])).toBeUndefined();
  });

  it("skips on the linear floor when one size is known and even linear growth is over the limit", () => {
    const skip = skipRun("fast", 10_000, config, [{ size: 1_000, ms: 400 }]);
    expect(skip?.predictedMs).toBe(4_000);
  });

  it("uses the measured growth when two sizes are known", () => {
    const known = [
      { size: 1_000, ms: 20 },
      { size: 10_000, ms: 200 },
    ];
    expect(skipRun("fast", 100_000, config, known)).toBeUndefined();
    expect(skipRun("fast", 100_000, { ...config, maxRunMs: 1_000 }, known)?.predictedMs).toBe(2_000);
  });

  it("skips every larger size after a run over the time limit, with no prediction", () => {
    const skip = skipRun("fast", 100_000, config, [{ size: 10_000, ms: Number.POSITIVE_INFINITY }]);
    expect(skip).toBeDefined();
    expect(skip?.predictedMs).toBeUndefined();
  });
});
