import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { EngineKey } from "../adapters/registry.js";
import type { BenchConfig } from "../bench-config.js";

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

/** A child that runs longer than this is killed (its engine is reported as too slow). */
export const MEMORY_CHILD_TIMEOUT_MS = 90_000;

function runChild(
  args: readonly string[],
): Promise<{ ok: boolean; ms: number; maxRssMb: number; error?: string }> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, args, {
      stdio: ["ignore", "pipe", "pipe", "ipc"],
      timeout: MEMORY_CHILD_TIMEOUT_MS,
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
        const reason = code === null ? `killed after ${MEMORY_CHILD_TIMEOUT_MS / 1000} s` : `exited ${code}`;
        reject(new Error(`memory child ${reason}: ${err.trim().split("\n").slice(-3).join(" | ")}`));
      }
    });
  });
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
    try {
      const result = await runChild([engine, "sparse", String(config.memorySize), String(config.seed)]);
      figures.push({
        engine,
        maxRssMb: result.maxRssMb,
        ms: result.ms,
        ...(result.error ? { error: result.error } : {}),
      });
    } catch (error) {
      figures.push({ engine, error: error instanceof Error ? error.message : String(error) });
    }
    log(`memory ${engine}: ${JSON.stringify(figures.at(-1))}`);
  }
  return figures;
}
