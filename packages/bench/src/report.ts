import type { MachineInfo } from "./machine.js";
import { round } from "./stats.js";
import { PEER_NAMES, type TargetCheck } from "./targets.js";
import type { AgentLoopFigure } from "./workloads/agent-loop.js";
import type { CompileCase } from "./workloads/compile.js";
import type { ContextFigures } from "./workloads/context.js";
import type { MakespanCase } from "./workloads/makespan.js";
import type { MemoryFigure } from "./workloads/memory.js";
import type { EngineFigure, OverheadCase } from "./workloads/overhead.js";

/** Everything `pnpm bench` measured: the content of results.json. */
export interface BenchResults {
  readonly machine: MachineInfo;
  readonly mode: "full" | "quick";
  readonly notes: readonly string[];
  readonly overhead: readonly OverheadCase[];
  readonly makespan: readonly MakespanCase[];
  readonly compile: readonly CompileCase[];
  readonly context?: ContextFigures;
  readonly contextError?: string;
  readonly memory: readonly MemoryFigure[];
  /** Workload 6 (absent in results written before it existed). */
  readonly agentLoop?: readonly AgentLoopFigure[];
  /** Ticks in the agent loop's first and last blocks. */
  readonly agentLoopBlock?: number;
  readonly targets: readonly TargetCheck[];
  /** Wall time of each workload that ran (s). */
  readonly seconds?: Readonly<Record<string, number>>;
  readonly totalSeconds: number;
  /** CPU seconds of the bench process (child processes not included): on a shared machine, wall time includes waiting for a core. */
  readonly cpuSeconds?: number;
}

function cell(figure: EngineFigure | undefined): string {
  if (figure === undefined) return "";
  if (figure.error !== undefined) return "✗ error";
  if (figure.skipped !== undefined) return "—";
  return String(figure.usPerCall);
}

function ratioCell(value: number): string {
  return Number.isFinite(value) ? `${round(value, 2)}×` : "—";
}

function overheadTable(cases: readonly OverheadCase[]): string[] {
  const engines = cases[0]?.engines.map((e) => e.engine) ?? [];
  const lines = [
    `| shape | calls | ${engines.join(" | ")} | Obelisk mem ÷ fastest peer | Obelisk SQLite ÷ fastest peer |`,
    `|---|---:|${engines.map(() => "---:").join("|")}|---:|---:|`,
  ];
  for (const c of cases) {
    const us = (name: string) => c.engines.find((e) => e.engine === name)?.usPerCall ?? Number.NaN;
    const peers = PEER_NAMES.map(us).filter(Number.isFinite);
    const fastest = peers.length > 0 ? Math.min(...peers) : Number.NaN;
    lines.push(
      `| ${c.shape} | ${c.size.toLocaleString("en-US")} | ${c.engines.map(cell).join(" | ")} | ${ratioCell(us("Obelisk (memory)") / fastest)} | ${ratioCell(us("Obelisk (SQLite)") / fastest)} |`,
    );
  }
  return lines;
}

function makespanTable(cases: readonly MakespanCase[]): string[] {
  const lines = [
    "| concurrency | lower bound (ms) | engine | makespan (ms) | ÷ bound | ÷ observed bound |",
    "|---|---:|---|---:|---:|---:|",
  ];
  for (const c of cases) {
    for (const e of c.engines) {
      const figures =
        e.error === undefined
          ? `${e.medianMs} | ${e.ratioToBound} | ${e.ratioToObservedBound}`
          : "✗ error | | ";
      lines.push(`| ${c.concurrency} | ${c.lowerBoundMs} | ${e.engine} | ${figures} |`);
    }
  }
  return lines;
}

function compileTable(cases: readonly CompileCase[]): string[] {
  const sizes = cases[0]?.figures.map((f) => f.size.toLocaleString("en-US")) ?? [];
  const lines = [
    `| shape | ${sizes.map((s) => `${s} (µs/call)`).join(" | ")} | growth |`,
    `|---|${sizes.map(() => "---:").join("|")}|---:|`,
  ];
  for (const c of cases)
    lines.push(
      `| ${c.shape} | ${c.figures.map((f) => f.usPerCall).join(" | ")} | ${c.growth}×${c.error ? " ✗" : ""} |`,
    );
  return lines;
}

function contextTable(context: ContextFigures | undefined, error: string | undefined): string[] {
  if (context === undefined) return [`Not measured: ${error ?? "unknown"}`];
  return [
    "| what the LLM sees | characters |",
    "|---|---:|",
    `| Obelisk: plan (${context.planChars}) + summary (${context.summaryChars}) | ${context.obeliskChars.toLocaleString("en-US")} |`,
    `| data inlined into the calls | ${context.inlineCallsChars.toLocaleString("en-US")} (${context.ratio}×) |`,
    `| ReAct: inlined calls + every tool result | ${context.reactChars.toLocaleString("en-US")} (${context.reactRatio}×) |`,
    `| LLMCompiler-style: plan with placeholders + every tool result once | ${context.resultsOnceChars.toLocaleString("en-US")} (${context.resultsOnceRatio}×) |`,
  ];
}

function memoryTable(figures: readonly MemoryFigure[]): string[] {
  const lines = ["| engine | peak RSS (MB) | run (ms) | note |", "|---|---:|---:|---|"];
  for (const f of figures) {
    const note = f.error !== undefined ? `✗ ${f.error}` : (f.skipped ?? "");
    lines.push(`| ${f.engine} | ${f.maxRssMb ?? "—"} | ${f.ms ?? "—"} | ${note} |`);
  }
  return lines;
}

function agentLoopTable(figures: readonly AgentLoopFigure[], block: number): string[] {
  if (figures.length === 0) return ["(not run)"];
  const lines = [
    `| store | ticks | ms per tick, first ${block} | ms per tick, last ${block} | growth | variables at the end |`,
    "|---|---:|---:|---:|---:|---:|",
  ];
  for (const f of figures) {
    const growth = f.error === undefined ? `${f.growth}×` : `✗ ${f.error}`;
    lines.push(`| ${f.store} | ${f.ticks} | ${f.firstMs} | ${f.lastMs} | ${growth} | ${f.variables} |`);
  }
  return lines;
}

function targetTable(targets: readonly TargetCheck[]): string[] {
  const mark = (met: boolean | undefined) =>
    met === undefined ? "not measured" : met ? "✓ met" : "✗ missed";
  return [
    "| target | measured | |",
    "|---|---:|---|",
    ...targets.map(
      (t) =>
        `| ${t.target} | ${t.measured} ${t.unit} | ${mark(t.met)}${t.attainable === false ? ", unattainable here" : ""}${t.note ? ` (${t.note})` : ""} |`,
    ),
  ];
}

function skippedNotes(results: BenchResults): string[] {
  const seen = new Map<string, string>();
  for (const c of results.overhead)
    for (const e of c.engines) if (e.skipped) seen.set(`${e.engine}, ${c.shape} ${c.size}: ${e.skipped}`, "");
  for (const c of results.overhead)
    for (const e of c.engines) if (e.error) seen.set(`${e.engine} ${c.shape} ${c.size}: ${e.error}`, "");
  return [...seen.keys()].map((line) => `- ${line}`);
}

function timeSplit(seconds: Readonly<Record<string, number>> | undefined): string {
  const parts = Object.entries(seconds ?? {}).map(([name, s]) => `${name} ${s} s`);
  return parts.length > 0 ? ` (${parts.join(", ")})` : "";
}

/** Where the overhead workload's time went: seconds per engine over every case (warm-ups included). */
function overheadTime(cases: readonly OverheadCase[]): string[] {
  const spent = new Map<string, number>();
  for (const c of cases)
    for (const e of c.engines) spent.set(e.engine, (spent.get(e.engine) ?? 0) + (e.spentMs ?? 0));
  if (cases.length === 0) return [];
  const parts = [...spent].map(([engine, ms]) => `${engine} ${round(ms / 1000, 2)} s`);
  return [
    `Time spent per engine on this workload (warm-ups, setup and checks included): ${parts.join(", ")}.`,
  ];
}

/** Renders the results as markdown tables (what `pnpm bench` prints and the README shows). */
export function renderReport(results: BenchResults): string {
  const m = results.machine;
  return [
    `## Obelisk benchmarks — ${m.date.slice(0, 10)}`,
    "",
    `Machine: ${m.cpuModel}, ${m.cores} cores, ${m.memoryMb} MB, ${m.os}, Node ${m.node}; load average at start ${m.loadAverageAtStart}. Mode: ${results.mode}; ${results.totalSeconds} s in all${timeSplit(results.seconds)}${results.cpuSeconds === undefined ? "" : `; CPU time of the bench process ${results.cpuSeconds} s`}.`,
    "",
    "### Targets (issue 7)",
    ...targetTable(results.targets),
    "",
    "### 1. Overhead: µs per call (median; no-op work, data passed between calls)",
    ...overheadTable(results.overhead),
    "",
    ...skippedNotes(results),
    "",
    ...overheadTime(results.overhead),
    "",
    "### 2. Makespan: 5–50 ms sleeps on a random 200-call DAG",
    ...makespanTable(results.makespan),
    "",
    "### 3. Compile: Obelisk validate",
    ...compileTable(results.compile),
    "",
    "### 4. Context efficiency: data-analysis example",
    ...contextTable(results.context, results.contextError),
    "",
    `### 5. Memory: peak RSS of one ${results.memory.length > 0 ? "sparse" : ""} run in a child process`,
    ...memoryTable(results.memory),
    "",
    `### 6. Agent loop: one thread, a 4-call plan per tick (3 new variables, a push onto one list)`,
    ...agentLoopTable(results.agentLoop ?? [], results.agentLoopBlock ?? 0),
    "",
    ...results.notes.map((note) => `- ${note}`),
    "",
  ].join("\n");
}
