import { describe, expect, it } from "vitest";
import { canBeat, checkTargets } from "./targets.js";
import type { MakespanCase } from "./workloads/makespan.js";

const LIMITED = "≥ 10% shorter makespan than the best FIFO peer, limit 4";

function limited(bound: number, fifo: number, obelisk: number, fifoObserved = fifo / bound): MakespanCase {
  return {
    concurrency: 4,
    lowerBoundMs: bound,
    engines: [
      { engine: "p-graph", medianMs: fifo, ratioToObservedBound: fifoObserved },
      { engine: "p-graph (cost priorities)", medianMs: bound },
      { engine: "Obelisk (memory)", medianMs: obelisk },
    ],
  };
}

describe("canBeat", () => {
  it("is false when the required makespan is below the lower bound", () => {
    expect(canBeat(1560, 1430, 0.1)).toBe(false);
    expect(canBeat(1600, 1430, 0.1)).toBe(true);
  });

  it("proves nothing without figures", () => {
    expect(canBeat(Number.NaN, 1430, 0.1)).toBe(true);
  });
});

describe("checkTargets: makespan under a limit", () => {
  it("marks the target unattainable when the best FIFO peer is within 10% of the bound", () => {
    const target = checkTargets([], [limited(1430, 1560, 1500)], undefined).find((t) => t.target === LIMITED);
    expect(target?.met).toBe(false);
    expect(target?.attainable).toBe(false);
  });

  it("also uses the bound from the observed sleeps, which is tighter", () => {
    const target = checkTargets([], [limited(1430, 1600, 1500, 1.08)], undefined).find(
      (t) => t.target === LIMITED,
    );
    expect(target?.attainable).toBe(false);
  });

  it("leaves it attainable (and met when Obelisk is 10% shorter) when the FIFO peer is far from the bound", () => {
    const target = checkTargets([], [limited(1000, 2000, 1700)], undefined).find((t) => t.target === LIMITED);
    expect(target?.met).toBe(true);
    expect(target?.attainable).toBeUndefined();
    expect(target?.measured).toBe(15);
  });

  it("ignores the priority oracle when picking the best FIFO peer", () => {
    const target = checkTargets([], [limited(1000, 2000, 1900)], undefined).find((t) => t.target === LIMITED);
    expect(target?.measured).toBe(5);
  });
});
