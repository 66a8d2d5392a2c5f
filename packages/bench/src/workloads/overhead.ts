import type { Adapter } from "../adapters/adapter.js";
import { type EngineKey, loadAdapter } from "../adapters/registry.js";
import { type BenchConfig, laterWarmUp, runLimits } from "../bench-config.js";
import { type DagShape, generateDag } from "../dag.js";
import { measureInterleaved, type WarmUp } from "../measure.js";
import type { SizedTime } from "../predict-run.js";
import { type RunSkip, seconds, skipRun } from "../skip-run.js";
import { median, round } from "../stats.js";
import { referenceResults, work } from "../work.js";

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
  /** Wall time the bench spent on this engine and case (warm-up, setup and checks included), ms. */
  readonly spentMs?: number;
}

/** One DAG shape and size, every engine. */
export interface OverheadCase {
  readonly shape: DagShape;
  readonly size: number;
  readonly engines: readonly EngineFigure[];
  /** Wall time of the whole case (s). */
  readonly seconds?: number;
}

/** Workload 1: no-op calls on each shape and size; µs per call for every engine. */
export async function runOverhead(config: BenchConfig, log: (line: string) => void): Promise<OverheadCase[]> {
  const adapters = new Map<EngineKey, Adapter>();
  for (const key of OVERHEAD_ENGINES) adapters.set(key, await loadAdapter(key));
  const cases: OverheadCase[] = [];
  const first = config.sizes[0];
  const history = new Map<string, SizedTime[]>();
  for (const size of config.sizes) {
    for (const shape of config.shapes) {
      const caseStart = performance.now();
      const dag = generateDag(shape, size, config.seed);
      const expected = referenceResults(dag);
      const skip = new Map<EngineKey, RunSkip>();
      for (const key of OVERHEAD_ENGINES) {
        const reason = skipRun(key, size, config, history.get(`${key}/${shape}`) ?? []);
        if (reason !== undefined) skip.set(key, reason);
      }
      const active = OVERHEAD_ENGINES.filter((key) => !skip.has(key));
      let warmUp: WarmUp | undefined;
      if (size === first) {
        const warmDag = generateDag(
          shape,
          Math.max(3, Math.round(size * config.warmUpFraction)),
          config.seed,
        );
        // the first shape warms every engine fully; the later shapes run the same code, warm already
        const repeat = shape === config.shapes[0] ? config.warmUp : laterWarmUp(config);
        warmUp = { dag: warmDag, expected: referenceResults(warmDag), repeat };
      }
      const samples = await measureInterleaved(
        active.map((key) => adapters.get(key) as Adapter),
        dag,
        { task: work },
        expected,
        {
          reps: config.repsBySize(size),
          ...(warmUp === undefined ? {} : { warmUp }),
          repsFor: (ms) =>
            ms > config.oneSampleMs
              ? 1
              : ms > config.slowRuns.ms
                ? config.slowRuns.reps
                : Number.POSITIVE_INFINITY,
          timeoutMs: active.map((key) => runLimits(key, config).runTimeoutMs),
        },
      );
      const engines = OVERHEAD_ENGINES.map((key): EngineFigure => {
        const index = active.indexOf(key);
        const name = adapters.get(key)?.name ?? key;
        const historyKey = `${key}/${shape}`;
        if (index < 0) {
          const skipped = skip.get(key);
          return {
            key,
            engine: name,
            skipped: skipped?.reason ?? "skipped",
            ...(skipped?.predictedMs === undefined ? {} : { predictedMs: skipped.predictedMs }),
          };
        }
        const entry = samples[index];
        const spentMs = Math.round(entry?.spentMs ?? 0);
        if (entry?.error !== undefined) return { key, engine: name, error: entry.error, spentMs };
        if (entry?.tooSlow !== undefined) {
          history.set(historyKey, [{ size, ms: Number.POSITIVE_INFINITY }]);
          return { key, engine: name, skipped: entry.tooSlow, spentMs };
        }
        const ms = median(entry?.samples ?? []);
        history.set(historyKey, [...(history.get(historyKey) ?? []), { size, ms }]);
        return {
          key,
          engine: name,
          medianMs: round(ms),
          usPerCall: round((ms * 1000) / size),
          samplesMs: (entry?.samples ?? []).map((s) => round(s)),
          spentMs,
        };
      });
      cases.push({ shape, size, engines, seconds: round((performance.now() - caseStart) / 1000) });
      log(
        `overhead ${shape} ${size} (${seconds(performance.now() - caseStart)}): ${engines
          .map(
            (e) =>
              `${e.engine}=${e.usPerCall ?? (e.error !== undefined ? "error" : "skip")}${e.spentMs === undefined ? "" : ` [${e.samplesMs?.length ?? 0}× ${seconds(e.spentMs)}]`}`,
          )
          .join(", ")}`,
      );
    }
  }
  return cases;
}
