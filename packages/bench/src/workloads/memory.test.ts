import { describe, expect, it } from "vitest";
import { FULL_CONFIG } from "../bench-config.js";
import { memorySkips } from "./memory.js";
import type { OverheadCase } from "./overhead.js";

const sparse100k: OverheadCase = {
  shape: "sparse",
  size: 100_000,
  engines: [
    { key: "naive", engine: "naive Promise.all", usPerCall: 3 },
    { key: "p-graph", engine: "p-graph", skipped: "predicted ≈ 5.0 s", predictedMs: 5_000 },
    { key: "obelisk-memory", engine: "Obelisk (memory)", skipped: "predicted ≈ 15.0 s", predictedMs: 15_000 },
    { key: "obelisk-sqlite", engine: "Obelisk (SQLite)", skipped: "a run went over the time limit" },
  ],
};

describe("memorySkips", () => {
  it("skips capped peers, and engines the overhead workload skipped unless one run fits the memory limit", () => {
    const skips = memorySkips(FULL_CONFIG, [sparse100k]);
    expect([...skips.keys()].sort()).toEqual(["async-auto", "langgraph", "obelisk-memory", "obelisk-sqlite"]);
  });

  it("skips only the capped peers when the overhead workload did not run", () => {
    expect([...memorySkips(FULL_CONFIG, []).keys()].sort()).toEqual(["async-auto", "langgraph"]);
  });
});
