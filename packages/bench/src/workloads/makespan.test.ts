import { describe, expect, it } from "vitest";
import { FULL_CONFIG, QUICK_CONFIG } from "../bench-config.js";
import { repeatInGroups, repetitionGroups, runsAlone } from "./makespan.js";

describe("makespan repetitions", () => {
  it("runs the engines together, then each heavy one alone", () => {
    const engines = ["naive", "p-graph", "langgraph", "obelisk"];
    expect(repetitionGroups(engines, new Set(["langgraph"]))).toEqual([
      ["naive", "p-graph", "obelisk"],
      ["langgraph"],
    ]);
    // every engine alone: the runs go one after another, as before stop 32
    expect(repetitionGroups(engines, new Set(engines))).toEqual(engines.map((engine) => [engine]));
  });

  it("makes the sleeping warm-ups first, untimed, in the timed runs' groups, then the timed repetitions", async () => {
    const runs: string[] = [];
    await repeatInGroups([["naive", "obelisk"], ["langgraph"]], 2, 1, async (engine, timed) => {
      runs.push(`${engine}${timed ? "" : " (warm-up)"}`);
    });
    expect(runs).toEqual([
      "naive (warm-up)",
      "obelisk (warm-up)",
      "langgraph (warm-up)",
      "naive (warm-up)",
      "obelisk (warm-up)",
      "langgraph (warm-up)",
      "naive",
      "obelisk",
      "langgraph",
    ]);
  });

  it("sends an engine alone when its own work per run is a large share of the bound", () => {
    const aloneAbove = FULL_CONFIG.makespan.aloneAbove.limited;
    // the unbounded bound is 513 ms: LangGraph's instant run ~200 ms, Obelisk's ~10–25 ms
    expect(runsAlone(200, 513, aloneAbove)).toBe(true);
    expect(runsAlone(20, 513, aloneAbove)).toBe(false);
    expect(runsAlone(undefined, 513, aloneAbove)).toBe(false);
    // aloneAbove 0: every engine alone
    expect(runsAlone(1, 513, 0)).toBe(true);
  });

  it("runs every engine alone without a limit, where the ratio is held to the 2 % target", () => {
    const { unbounded } = FULL_CONFIG.makespan.aloneAbove;
    expect(runsAlone(10, 513, unbounded)).toBe(true);
    expect(runsAlone(1, 513, QUICK_CONFIG.makespan.aloneAbove.unbounded)).toBe(true);
  });
});
