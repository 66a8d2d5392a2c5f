import { describe, expect, it } from "vitest";
import type { Dag } from "../dag.js";
import { lowerBound, makespanSetup } from "./makespan-setup.js";

describe("makespan workload's case (issue 7: seeded 5–50 ms sleeps on a 200-call random DAG)", () => {
  const definition = { size: 200, minMs: 5, maxMs: 50, seed: 7 };

  it("draws every duration in [minMs, maxMs], the same ones for the same seed and others for another", () => {
    const setup = makespanSetup(definition);
    expect(setup.dag.size).toBe(200);
    expect(setup.durations).toHaveLength(200);
    expect(setup.durations.every((ms) => Number.isInteger(ms) && ms >= 5 && ms <= 50)).toBe(true);
    expect(new Set(setup.durations).size).toBeGreaterThan(20);
    expect(makespanSetup(definition).durations).toEqual(setup.durations);
    expect(makespanSetup({ ...definition, seed: 8 }).durations).not.toEqual(setup.durations);
  });
});

describe("the makespan lower bound", () => {
  // 0 → 1 → 3 and 0 → 2 → 3: the critical path is 0, 2, 3 (10 + 30 + 5 = 45); total work 60
  const dag: Dag = { shape: "sparse", size: 4, deps: [[], [0], [0], [1, 2]] };
  const cost = [10, 15, 30, 5];

  it("is the critical path, weighted by duration, without a limit", () => {
    expect(lowerBound(dag, cost, undefined)).toBe(45);
  });

  it("is max(critical path, total work / limit) with a limit", () => {
    expect(lowerBound(dag, cost, 4)).toBe(45);
    expect(lowerBound(dag, cost, 1)).toBe(60);
    expect(lowerBound(dag, [10, 40, 40, 10], 2)).toBe(60);
  });
});
