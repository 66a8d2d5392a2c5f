import type { Adapter } from "../adapters/adapter.js";
import { type EngineKey, loadAdapter } from "../adapters/registry.js";
import type { BenchConfig } from "../bench-config.js";
import { type DagShape, generateDag } from "../dag.js";
import { measureInterleaved, timeRun } from "../measure.js";
import { predictRunMs, type SizedTime } from "../predict-run.js";
import { median, round } from "../stats.js";
import { referenceResults, work } from "../work.js";

/** How many times the measured size the growth probe runs at. */
const PROBE_FACTOR = 3;

/** Engines of the overhead workload, in run order. */
export const OVERHEAD_ENGINES: readonly EngineKey[] = [
  "naive",
  "async-auto",
  "p-graph",
  "langgraph",
  "obelisk-memory",
  "obelisk-sqlite",
];

/** One engine's figure on one case. */
export interface EngineFigure {
  /** Engine key (stable). */
  readonly key: EngineKey;
  /** Engine name. */
  readonly engine: string;
  /** Median wall time of a run (ms). */
  readonly medianMs?: number;
  /** Median µs per call. */
  readonly usPerCall?: number;
  /** Every timed sample (ms). */
  readonly samplesMs?: readonly number[];
  /** Why there is no figure. */
  readonly skipped?: string;
  /** The predicted run time (ms) behind a skip, when it was predicted. */
  readonly predictedMs?: number;
  /** Wrong results or a crash (the run does not count). */
  readonly error?: string;
}

/** One DAG shape and size, every engine. */
export interface OverheadCase {
  readonly shape: DagShape;
  readonly size: number;
  readonly engines: readonly EngineFigure[];
}

/** Workload 1: no-op calls on each shape and size; µs per call for every engine. */
export async function runOverhead(config: BenchConfig, log: (line: string) => void): Promise<OverheadCase[]> {
  const adapters = new Map<EngineKey, Adapter>();
  for (const key of OVERHEAD_ENGINES) adapters.set(key, await loadAdapter(key));
  const cases: OverheadCase[] = [];
  const largest = Math.max(...config.sizes);
  const history = new Map<string, SizedTime[]>();
  for (const size of config.sizes) {
    for (const shape of config.shapes) {
      const dag = generateDag(shape, size, config.seed);
      const expected = referenceResults(dag);
      const skip = new Map<EngineKey, string>();
      const predictions = new Map<EngineKey, number>();
      for (const key of OVERHEAD_ENGINES) {
        const cap = config.caps[key];
        if (cap === undefined || size <= cap.maxSize)
          await probeGrowth(
            adapters.get(key) as Adapter,
            shape,
            size,
            config,
            history,
            `${key}/${shape}`,
            log,
          );
        const predicted = predictRunMs(history.get(`${key}/${shape}`) ?? [], size);
        if (cap !== undefined && size > cap.maxSize) skip.set(key, cap.reason);
        else if (predicted !== undefined && predicted > config.maxRunMs) {
          predictions.set(key, Math.round(predicted));
          skip.set(
            key,
            `predicted ≈ ${Math.round(predicted / 1000)} s per run from its smaller sizes (limit ${config.maxRunMs / 1000} s)`,
          );
        }
      }
      const active = OVERHEAD_ENGINES.filter((key) => !skip.has(key));
      const samples = await measureInterleaved(
        active.map((key) => adapters.get(key) as Adapter),
        dag,
        { task: work },
        expected,
        {
          reps: config.repsBySize(size),
          warmUp: size !== largest || config.sizes.length === 1,
          repsFor: (ms) => (ms > 1_500 ? 3 : Number.POSITIVE_INFINITY),
          timeoutMs: config.maxRunMs,
        },
      );
      const engines = OVERHEAD_ENGINES.map((key): EngineFigure => {
        const index = active.indexOf(key);
        const name = adapters.get(key)?.name ?? key;
        if (index < 0) {
          const predictedMs = predictions.get(key);
          return {
            key,
            engine: name,
            skipped: skip.get(key) ?? "skipped",
            ...(predictedMs === undefined ? {} : { predictedMs }),
          };
        }
        const entry = samples[index];
        if (entry?.error !== undefined) return { key, engine: name, error: entry.error };
        if (entry?.tooSlow !== undefined) {
          history.set(`${key}/${shape}`, [{ size, ms: Number.POSITIVE_INFINITY }]);
          return { key, engine: name, skipped: entry.tooSlow };
        }
        const ms = median(entry?.samples ?? []);
        history.set(`${key}/${shape}`, [...(history.get(`${key}/${shape}`) ?? []), { size, ms }]);
        return {
          key,
          engine: name,
          medianMs: round(ms),
          usPerCall: round((ms * 1000) / size),
          samplesMs: (entry?.samples ?? []).map((s) => round(s)),
        };
      });
      cases.push({ shape, size, engines });
      log(
        `overhead ${shape} ${size}: ${engines.map((e) => `${e.engine}=${e.usPerCall ?? e.error ?? "skip"}`).join(", ")}`,
      );
    }
  }
  return cases;
}

/**
 * With one size measured, the prediction assumes quadratic growth. When that alone would skip a run a
 * linear engine could finish in time, one untimed probe at a few times the measured size (checked like any
 * run) gives the engine's real growth exponent instead.
 */
async function probeGrowth(
  adapter: Adapter,
  shape: DagShape,
  size: number,
  config: BenchConfig,
  history: Map<string, SizedTime[]>,
  historyKey: string,
  log: (line: string) => void,
): Promise<void> {
  const known = history.get(historyKey) ?? [];
  const last = known.at(-1);
  if (known.length !== 1 || last === undefined || !Number.isFinite(last.ms)) return;
  const quadratic = predictRunMs(known, size) ?? 0;
  const linear = last.ms * (size / last.size);
  if (quadratic <= config.maxRunMs || linear > config.maxRunMs) return;
  const probeSize = Math.min(size, Math.round(last.size * PROBE_FACTOR));
  if (probeSize <= last.size) return;
  const dag = generateDag(shape, probeSize, config.seed);
  const run = await timeRun(adapter, dag, { task: work }, referenceResults(dag), config.maxRunMs);
  if (run.error !== undefined || !Number.isFinite(run.ms)) return;
  history.set(historyKey, [...known, { size: probeSize, ms: run.ms }]);
  log(`probe ${adapter.name} ${shape} ${probeSize}: ${round(run.ms)} ms (growth from ${last.size})`);
}
