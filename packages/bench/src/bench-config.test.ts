import { describe, expect, it } from "vitest";
import { FULL_CONFIG, laterWarmUp } from "./bench-config.js";

describe("FULL_CONFIG warm-up", () => {
  it("lets an engine whose 1k runs average 0.1 s make as many warm-up runs as a fast one", () => {
    // The budget counts run time only. Obelisk's first 1k runs take ~0.1–0.15 s, then ~20–35 ms (~1 s for
    // its 20 warm-up runs); async.auto's ~50–80 ms. Its runs keep getting faster for ~15–20 runs: a budget
    // that stops it early compares it half-warm with warm peers.
    const { budgetMs, maxRuns } = FULL_CONFIG.warmUp;
    expect(maxRuns).toBeGreaterThanOrEqual(20);
    expect(maxRuns * 100).toBeLessThanOrEqual(budgetMs);
  });
});

describe("laterWarmUp", () => {
  it("gives an engine warmed earlier in the workload the same share of the runs and of the run time", () => {
    const later = laterWarmUp(FULL_CONFIG);
    const { budgetMs, maxRuns, laterRuns } = FULL_CONFIG.warmUp;
    expect(later.maxRuns).toBe(laterRuns);
    expect(later.budgetMs / budgetMs).toBeCloseTo(laterRuns / maxRuns);
    // a fast engine (1k runs under 0.1 s) still makes all of them
    expect(later.maxRuns * 100).toBeLessThanOrEqual(later.budgetMs);
    expect(later.maxRuns).toBeLessThan(FULL_CONFIG.warmUp.maxRuns);
    // enough for Obelisk's 1k runs on a new shape to reach their plateau after another shape's warm-up (~6)
    expect(later.maxRuns).toBeGreaterThanOrEqual(6);
  });
});
