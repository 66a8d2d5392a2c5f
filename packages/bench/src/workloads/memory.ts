import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { EngineKey } from "../adapters/registry.js";
import type { BenchConfig } from "../bench-config.js";
import type { OverheadCase } from "./overhead.js";

/** Peak RSS of one engine's run in its own process. */
export interface MemoryFigure {
  /** Engine key, or `baseline` (the process without any engine run). */
  readonly engine: EngineKey | "baseline";
  /** Peak resident set size of the whole child process (MB). */
  readonly maxRssMb?: number;
  /** Wall time of the run (ms), for orientation. */
  readonly ms?: number;
  readonly skipped?: string;
  readonly error?: string;
  /** Wall time of the child process, startup included (ms). */
  readonly spentMs?: number;
}

const CHILD = fileURLToPath(new URL("./memory-child.ts", import.meta.url));
const ENGINES: readonly (EngineKey | "baseline")[] = [
  "baseline",
  "naive",
  "async-auto",
  "p-graph",
  "langgraph",
  "obelisk-memory",
  "obelisk-sqlite",
];

/** A child may run this many times the predicted-run limit (startup, DAG generation) before it is killed. */
const CHILD_TIMEOUT_FACTOR = 3;

function runChild(
  args: readonly string[],
  timeoutMs: number,
): Promise<{ ok: boolean; ms: number; maxRssMb: number; error?: string }> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, args, {
      stdio: ["ignore", "pipe", "pipe", "ipc"],
      timeout: timeoutMs,
    });
    let out = "";
    let err = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      try {
        resolve(JSON.parse(line));
      } catch {
        const reason = code === null ? `killed after ${timeoutMs / 1000} s` : `exited ${code}`;
        reject(new Error(`memory child ${reason}: ${err.trim().split("\n").slice(-3).join(" | ")}`));
      }
    });
  });
}

/**
 * Which engines the memory workload skips, and why: peers capped below `memorySize`, and engines the
 * overhead workload skipped on the same DAG unless their one run is predicted within `memoryMaxRunMs`.
 */
export function memorySkips(config: BenchConfig, overhead: readonly OverheadCase[]): Map<string, string> {
  const skips = new Map<string, string>(
    Object.entries(config.caps)
      .filter(([, cap]) => cap.maxSize < config.memorySize)
      .map(([key, cap]) => [key, cap.reason]),
  );
  const sameRun = overhead.find((c) => c.shape === "sparse" && c.size === config.memorySize);
  for (const figure of sameRun?.engines ?? []) {
    if (figure.skipped === undefined || skips.has(figure.key)) continue;
    const fits = figure.predictedMs !== undefined && figure.predictedMs <= config.memoryMaxRunMs;
    if (!fits) {
      const limit =
        figure.predictedMs === undefined ? "" : ` (one run: limit ${config.memoryMaxRunMs / 1000} s)`;
      skips.set(figure.key, `skipped in the overhead workload: ${figure.skipped}${limit}`);
    }
  }
  return skips;
}

/** Workload 5: peak RSS of the sparse `memorySize`-call run, one child process per engine. */
export async function runMemory(
  config: BenchConfig,
  skipped: ReadonlyMap<string, string>,
  log: (line: string) => void,
): Promise<MemoryFigure[]> {
  const figures: MemoryFigure[] = [];
  for (const engine of ENGINES) {
    const reason = skipped.get(engine);
    if (reason !== undefined) {
      figures.push({ engine, skipped: reason });
      continue;
    }
    const start = performance.now();
    try {
      const result = await runChild(
        [engine, "sparse", String(config.memorySize), String(config.seed)],
        config.memoryMaxRunMs * CHILD_TIMEOUT_FACTOR,
      );
      figures.push({
        engine,
        maxRssMb: result.maxRssMb,
        ms: result.ms,
        ...(result.error ? { error: result.error } : {}),
        spentMs: Math.round(performance.now() - start),
      });
    } catch (error) {
      figures.push({
        engine,
        error: error instanceof Error ? error.message : String(error),
        spentMs: Math.round(performance.now() - start),
      });
    }
    log(`memory ${engine}: ${JSON.stringify(figures.at(-1))}`);
  }
  return figures;
}
