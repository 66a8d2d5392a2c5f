import { createEngine } from "obelisk";
import { describe, expect, it } from "vitest";
import { QUICK_CONFIG } from "../bench-config.js";
import { renderReport } from "../report.js";
import { AGENT_LOOP_TOOLS, runAgentLoop, tickPlan } from "./agent-loop.js";

describe("agent-loop workload", () => {
  it("a tick's plan validates against the workload's tools", async () => {
    const engine = createEngine({ tools: [...AGENT_LOOP_TOOLS] });
    const result = await engine.validate({ type: "plan", plan: tickPlan(7) }, { input: { topic: "x" } });
    expect(result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it("runs every tick on both stores, checks the log, and reports the first and last blocks", async () => {
    const figures = await runAgentLoop({ ...QUICK_CONFIG, agentLoop: { ticks: 6, block: 2 } }, () => {});
    expect(figures.map((f) => f.store)).toEqual(["memory", "sqlite"]);
    for (const figure of figures) {
      expect(figure.error).toBeUndefined();
      expect(figure.ticks).toBe(6);
      // 3 new variables per tick, plus the log every tick pushes onto
      expect(figure.variables).toBe(3 * 6 + 1);
      expect(figure.firstMs).toBeGreaterThan(0);
      expect(figure.growth).toBeCloseTo(figure.lastMs / figure.firstMs, 1);
    }
  });

  it("renders as table 6 of the report", () => {
    const figure = { store: "memory" as const, ticks: 10, firstMs: 1, lastMs: 2, growth: 2, variables: 31 };
    const report = renderReport({
      machine: {
        date: "2026-11-23T00:00:00.000Z",
        cpuModel: "cpu",
        cores: 2,
        memoryMb: 1,
        os: "linux",
        node: "v20",
        loadAverageAtStart: 0,
      },
      mode: "quick",
      notes: [],
      overhead: [],
      makespan: [],
      compile: [],
      memory: [],
      agentLoop: [figure, { ...figure, store: "sqlite", error: "tick 3: run failed" }],
      agentLoopBlock: 5,
      targets: [],
      totalSeconds: 1,
    });
    expect(report).toContain("| ms per tick, first 5 | ms per tick, last 5 |");
    expect(report).toContain("| memory | 10 | 1 | 2 | 2× | 31 |");
    expect(report).toContain("| sqlite | 10 | 1 | 2 | ✗ tick 3: run failed | 31 |");
  });
});
