import { describe, expect, it } from "vitest";
import { FULL_CONFIG } from "./bench-config.js";

describe("FULL_CONFIG warm-up", () => {
  it("lets an engine whose cold 1k runs take 0.2 s make as many warm-up runs as a fast one", () => {
    // Obelisk's first 1k runs take 0.1–0.2 s with the bench's GC, setup and check; its runs keep getting
    // faster for ~15–20 runs. A budget that stops it early compares it half-warm with warm peers.
    const { budgetMs, maxRuns } = FULL_CONFIG.warmUp;
    expect(maxRuns).toBeGreaterThanOrEqual(20);
    expect(maxRuns * 200).toBeLessThanOrEqual(budgetMs);
  });
});
