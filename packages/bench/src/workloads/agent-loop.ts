import { createEngine, type JsonObject, type ToolDefinition } from "obelisk";
import { type ObeliskStoreKind, openBenchStore } from "../adapters/obelisk.js";
import type { BenchConfig } from "../bench-config.js";
import { median, round } from "../stats.js";

/** One store's agent loop: one engine, one thread, one small plan per tick. */
export interface AgentLoopFigure {
  readonly store: ObeliskStoreKind;
  /** Ticks run. */
  readonly ticks: number;
  /** Median ms per tick over the first block of ticks. */
  readonly firstMs: number;
  /** Median ms per tick over the last block of ticks. */
  readonly lastMs: number;
  /** lastMs / firstMs: how much a tick slows down as the thread grows (1 = not at all). */
  readonly growth: number;
  /** Variables in the thread's state at the end (what the last ticks worked next to). */
  readonly variables: number;
  readonly error?: string;
}

/** What each tick's plan does: two searches, a summary of each, and a push onto the thread's log. */
export function tickPlan(tick: number): JsonObject[] {
  return [
    { _tool: "search", _id: `a${tick}`, query: "first {†input.topic}", _outputPath: `†state.results${tick}` },
    { _tool: "search", _id: `b${tick}`, query: "second {†input.topic}", _outputPath: `†state.extra${tick}` },
    {
      _tool: "summarize",
      _id: `s${tick}`,
      items: `†state.results${tick}`,
      _outputPath: `†state.summary${tick}`,
    },
    {
      _tool: "summarize",
      _id: `t${tick}`,
      items: `†state.extra${tick}`,
      _outputPath: "†state.log",
      _outputMethod: "push",
    },
  ];
}

/** The tools of {@link tickPlan}: a search returning 20 small records, and a summary of a list. */
export const AGENT_LOOP_TOOLS: readonly ToolDefinition[] = [
  {
    name: "search",
    input: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    run: (args) => {
      const query = (args as { query: string }).query;
      return Array.from({ length: 20 }, (_, i) => ({ id: i, title: `${query} #${i}`, score: i / 20 }));
    },
  },
  {
    name: "summarize",
    input: { type: "object", properties: { items: { type: "array" } }, required: ["items"] },
    run: (args) => `${(args as { items: unknown[] }).items.length} results`,
  },
];

/**
 * Workload 6: what an agent loop costs per tick as its thread grows. One engine and one thread per store;
 * each tick runs {@link tickPlan} (3 new variables, a push onto one list) and is timed whole (validate,
 * lock, run, durable commits, retention, result). Checked: every tick succeeds and the log holds one entry
 * per tick.
 */
export async function runAgentLoop(
  config: BenchConfig,
  log: (line: string) => void,
): Promise<AgentLoopFigure[]> {
  const { ticks, block } = config.agentLoop;
  const figures: AgentLoopFigure[] = [];
  for (const kind of ["memory", "sqlite"] as const) {
    const { store, cleanup } = await openBenchStore(kind);
    const engine = createEngine({ tools: [...AGENT_LOOP_TOOLS], store });
    const times: number[] = [];
    let error: string | undefined;
    let variables = 0;
    try {
      for (let tick = 1; tick <= ticks; tick++) {
        const start = performance.now();
        const result = await engine.run(
          { type: "plan", plan: tickPlan(tick) },
          { threadId: "agent", input: { topic: `tick ${tick}` } },
        );
        times.push(performance.now() - start);
        if (result.status !== "succeeded") throw new Error(`tick ${tick}: run ${result.status}`);
        const entries = (result.state.log as unknown[] | undefined)?.length;
        if (entries !== tick) throw new Error(`tick ${tick}: the log holds ${entries} entries`);
        variables = Object.keys(result.state).length;
      }
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    } finally {
      await engine.close();
      cleanup();
    }
    const firstMs = round(median(times.slice(0, block)));
    const lastMs = round(median(times.slice(-block)));
    const figure: AgentLoopFigure = {
      store: kind,
      ticks: times.length,
      firstMs,
      lastMs,
      growth: round(lastMs / firstMs),
      variables,
      ...(error === undefined ? {} : { error }),
    };
    figures.push(figure);
    log(
      `agent loop ${kind}: ${figure.ticks} ticks, ${firstMs} ms/tick at first, ${lastMs} at the end (×${figure.growth}, ${variables} variables)${error === undefined ? "" : `; ✗ ${error}`}`,
    );
  }
  return figures;
}
