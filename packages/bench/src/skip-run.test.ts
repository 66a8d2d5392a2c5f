import { describe, expect, it } from "vitest";
import { FULL_CONFIG } from "./bench-config.js";
import { skipRun } from "./skip-run.js";

const config = {
  caps: { slow: { maxSize: 1_000, reason: "capped" } },
  maxRunMs: 3_000,
  runTimeoutMs: 5_000,
  underTest: { engines: ["tested"], maxRunMs: 12_000, runTimeoutMs: 20_000 },
};

describe("skipRun", () => {
  it("skips a capped engine above its cap, with the cap's reason", () => {
    expect(skipRun("slow", 10_000, config, [])).toEqual({ reason: "capped" });
    expect(skipRun("slow", 1_000, config, [])).toBeUndefined();
  });

  it("runs an engine with no history", () => {
    expect(skipRun("fast", 100_000, config, [])).toBeUndefined();
  });

  it("predicts linear growth (the floor) when one size is known", () => {
    expect(skipRun("fast", 10_000, config, [{ size: 1_000, ms: 400 }])?.predictedMs).toBe(4_000);
    expect(skipRun("fast", 10_000, config, [{ size: 1_000, ms: 250 }])).toBeUndefined();
  });

  it("uses the measured growth when two sizes are known", () => {
    const known = [
      { size: 1_000, ms: 100 },
      { size: 10_000, ms: 200 },
    ];
    expect(skipRun("fast", 100_000, config, known)).toBeUndefined();
    expect(skipRun("fast", 100_000, { ...config, maxRunMs: 1_000 }, known)?.predictedMs).toBe(2_000);
    const quadratic = [
      { size: 1_000, ms: 100 },
      { size: 10_000, ms: 1_000 * 10 },
    ];
    expect(skipRun("fast", 20_000, config, quadratic)?.predictedMs).toBe(40_000);
  });

  it("skips every larger size after a run over the time limit, with no prediction", () => {
    const skip = skipRun("fast", 100_000, config, [{ size: 10_000, ms: Number.POSITIVE_INFINITY }]);
    expect(skip).toBeDefined();
    expect(skip?.predictedMs).toBeUndefined();
  });

  it("runs the engine under test up to its own limit, where a peer with the same history is skipped", () => {
    // stop 31: Obelisk (memory) sparse 100k predicted at 6.1 s against a 6 s limit, so the 100k target went unmeasured
    const known = [{ size: 10_000, ms: 610 }];
    expect(skipRun("tested", 100_000, config, known)).toBeUndefined();
    expect(skipRun("peer", 100_000, config, known)?.predictedMs).toBe(6_100);
    const way = skipRun("tested", 100_000, config, [{ size: 10_000, ms: 1_300 }]);
    expect(way?.predictedMs).toBe(13_000);
    expect(way?.reason).toContain("limit 12.0 s");
  });

  it("never skips the engine under test by prediction when its limit is infinite (the full run's)", () => {
    // a run at load ~20: Obelisk's 10k runs took 3-3.5 s, predicting 35 s at 100k
    const known = [
      { size: 1_000, ms: 290 },
      { size: 10_000, ms: 3_490 },
    ];
    expect(skipRun("obelisk-memory", 100_000, FULL_CONFIG, known)).toBeUndefined();
    expect(skipRun("p-graph", 100_000, FULL_CONFIG, known)).toBeDefined();
    // a run over its time limit still stops it on that shape
    expect(skipRun("obelisk-memory", 100_000, FULL_CONFIG, [{ size: 10_000, ms: Infinity }])).toBeDefined();
  });
});
