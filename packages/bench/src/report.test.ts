import { describe, expect, it } from "vitest";
import { describeMachine } from "./machine.js";
import { type BenchResults, renderReport } from "./report.js";
import type { EngineFigure, OverheadCase } from "./workloads/overhead.js";

const machine = {
  os: "linux 6.1",
  cpuModel: "Test CPU",
  cores: 2,
  memoryMb: 4096,
  node: "v20.0.0",
  date: "2026-11-27T10:00:00.000Z",
  loadAverageAtStart: 1.5,
};

const figure = (key: EngineFigure["key"], engine: string, usPerCall: number): EngineFigure => ({
  key,
  engine,
  medianMs: usPerCall,
  usPerCall,
  samplesMs: [usPerCall, usPerCall, usPerCall, usPerCall, usPerCall],
});

/** One case per size: at 10k the slow peers are skipped, so p-graph is the only peer left. */
const overhead: OverheadCase[] = [
  {
    shape: "sparse",
    size: 1_000,
    engines: [
      figure("naive", "naive Promise.all", 0.5),
      figure("async-auto", "async.auto", 40),
      figure("p-graph", "p-graph", 10),
      figure("langgraph", "LangGraph", 800),
      figure("obelisk-memory", "Obelisk (memory)", 25),
      figure("obelisk-sqlite", "Obelisk (SQLite)", 150),
    ],
  },
  {
    shape: "sparse",
    size: 10_000,
    engines: [
      figure("naive", "naive Promise.all", 0.6),
      { key: "async-auto", engine: "async.auto", skipped: "quadratic" },
      figure("p-graph", "p-graph", 20),
      { key: "langgraph", engine: "LangGraph", skipped: "minutes per run" },
      figure("obelisk-memory", "Obelisk (memory)", 30),
      figure("obelisk-sqlite", "Obelisk (SQLite)", 200),
    ],
  },
];

const results: BenchResults = {
  machine,
  mode: "full",
  notes: ["a note"],
  overhead,
  makespan: [],
  compile: [],
  memory: [],
  targets: [],
  totalSeconds: 200,
};

const overheadRows = (report: string) => report.split("\n").filter((line) => line.startsWith("| sparse |"));

describe("the bench report (issue 7's markdown table)", () => {
  it("heads the report with the date and the machine description", () => {
    const report = renderReport(results);
    expect(report.split("\n")[0]).toBe("## Obelisk benchmarks — 2026-11-27");
    expect(report).toContain(
      "Machine: Test CPU, 2 cores, 4096 MB, linux 6.1, Node v20.0.0; load average at start 1.5. Mode: full; 200 s in all",
    );
  });

  it("gives each Obelisk store's ratio to the fastest peer, the naive baseline not counted as a peer", () => {
    const [at1k, at10k] = overheadRows(renderReport(results));
    // fastest peer at 1k: p-graph 10 µs (the naive 0.5 µs is the floor, not a peer)
    expect(at1k).toBe("| sparse | 1,000 | 0.5 | 40 | 10 | 800 | 25 | 150 | 2.5× | 15× |");
    // at 10k only p-graph ran: skipped peers show "—" and are not the fastest
    expect(at10k).toBe("| sparse | 10,000 | 0.6 | — | 20 | — | 30 | 200 | 1.5× | 10× |");
  });

  it("says why an engine was skipped, under the table", () => {
    const report = renderReport(results);
    expect(report).toContain("- async.auto, sparse 10000: quadratic");
    expect(report).toContain("- LangGraph, sparse 10000: minutes per run");
  });
});

describe("describeMachine (results.json's machine description)", () => {
  it("names the OS, CPU, cores, memory, Node version, the run's date and the load at its start", () => {
    const described = describeMachine();
    expect(described).toEqual({
      os: expect.stringMatching(/\S+ \S+/),
      cpuModel: expect.any(String),
      cores: expect.any(Number),
      memoryMb: expect.any(Number),
      node: process.version,
      date: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      loadAverageAtStart: expect.any(Number),
    });
    expect(described.cores).toBeGreaterThan(0);
    expect(described.memoryMb).toBeGreaterThan(0);
    expect(Date.now() - Date.parse(described.date)).toBeLessThan(60_000);
  });
});
