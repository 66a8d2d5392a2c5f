import type { Adapter, RunSpec } from "./adapters/adapter.js";
import type { Dag } from "./dag.js";
import { firstMismatch } from "./work.js";

/** One timed run: wall time of `run()` only, and whether the results were right. */
export interface TimedRun {
  /** Milliseconds spent in `run()`. */
  readonly ms: number;
  /** Why the run does not count (wrong results or a thrown error). */
  readonly error?: string;
  /** The run went over the time limit (and was cancelled where the engine supports it). */
  readonly timedOut?: boolean;
}

const collectGarbage = (globalThis as { gc?: () => void }).gc;

/** Prepares, runs (timed), checks against `expected`, and disposes one run. Never throws. */
export async function timeRun(
  adapter: Adapter,
  dag: Dag,
  spec: RunSpec,
  expected: readonly number[],
  timeoutMs = Number.POSITIVE_INFINITY,
): Promise<TimedRun> {
  collectGarbage?.();
  let prepared: Awaited<ReturnType<Adapter["prepare"]>> | undefined;
  const start = performance.now();
  try {
    const limited = Number.isFinite(timeoutMs) ? { ...spec, signal: AbortSignal.timeout(timeoutMs) } : spec;
    prepared = await adapter.prepare(dag, limited);
    const runStart = performance.now();
    const results = await prepared.run();
    const ms = performance.now() - runStart;
    if (ms > timeoutMs) return { ms, timedOut: true, error: `a run took over ${timeoutMs / 1000} s` };
    const mismatch = firstMismatch(expected, results);
    if (mismatch >= 0) {
      return { ms, error: `wrong result at node ${mismatch}: ${results[mismatch]} ≠ ${expected[mismatch]}` };
    }
    return { ms };
  } catch (error) {
    if (performance.now() - start > timeoutMs) {
      return { ms: Number.NaN, timedOut: true, error: `a run took over ${timeoutMs / 1000} s (cancelled)` };
    }
    return {
      ms: Number.NaN,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    };
  } finally {
    await prepared?.dispose().catch(() => {});
  }
}

/** Samples of one engine on one case. */
export interface EngineSamples {
  /** Engine name. */
  readonly engine: string;
  /** Timed samples in ms (warm-up excluded). */
  readonly samples: number[];
  /** Wall time spent on this engine for the case (warm-up, setup, checks and disposal included), ms. */
  spentMs: number;
  /** First error seen; samples stop counting once set. */
  error?: string;
  /** Set when a run went over the time limit: the engine is too slow for this case (not an error). */
  tooSlow?: string;
}

/**
 * Warm-up before the timed runs: one run on `dag` (a smaller DAG of the same shape: cheap for slow engines),
 * then, with `repeat`, runs on the case's own DAG until the engine's warm-up runs add up to `budgetMs` or it
 * has made `maxRuns` of them. One run is not enough to warm a JIT: Obelisk's 1k-call runs go from ~90 to
 * ~15 µs per call over its first ten, p-graph's from ~15 to ~6.
 */
export interface WarmUp {
  readonly dag: Dag;
  readonly expected: readonly number[];
  readonly repeat?: WarmUpBudget;
}

/**
 * How long warm-up goes on: until the warm-up runs' own times (the timed part of each run, as a sample would
 * be timed: not the forced GC, setup, check or disposal around it) add up to `budgetMs`, or `maxRuns` runs
 * are made, whichever comes first.
 */
export interface WarmUpBudget {
  readonly budgetMs: number;
  readonly maxRuns: number;
}

/**
 * Repeats `once` (a warm-up run that returns its run time in ms, or `undefined` when warm-up must stop: an
 * error) within `budget`, counting from `spentMs` of run time already spent. Returns the run time it spent.
 */
export async function warmUntil(
  budget: WarmUpBudget,
  once: () => Promise<number | undefined>,
  spentMs = 0,
): Promise<number> {
  let spent = spentMs;
  for (let run = 0; run < budget.maxRuns; run++) {
    if (spent >= budget.budgetMs) break;
    const ms = await once();
    if (ms === undefined || Number.isNaN(ms)) break;
    spent += ms;
  }
  return spent - spentMs;
}

/**
 * Runs every adapter on the same case: its warm-up runs (when `warmUp` is given; checked, not kept),
 * then up to `reps` rounds in which the engines run in the same order (interleaved, so drift hits all
 * alike). `repsFor` may lower the repetitions of an engine from its first timed run (a slow engine gets fewer).
 * `timeoutMs`: one limit for every engine, or one per adapter (same order).
 */
export async function measureInterleaved(
  adapters: readonly Adapter[],
  dag: Dag,
  spec: RunSpec,
  expected: readonly number[],
  options: {
    readonly reps: number;
    readonly warmUp?: WarmUp;
    readonly repsFor?: (firstRunMs: number) => number;
    readonly timeoutMs?: number | readonly number[];
  },
): Promise<EngineSamples[]> {
  const all: EngineSamples[] = adapters.map((adapter) => ({ engine: adapter.name, samples: [], spentMs: 0 }));
  const reps = adapters.map(() => options.reps);
  const limits = adapters.map((_, index) =>
    typeof options.timeoutMs === "number"
      ? options.timeoutMs
      : (options.timeoutMs?.[index] ?? Number.POSITIVE_INFINITY),
  );
  const timed = async (index: number, run: () => Promise<TimedRun>, keep: boolean): Promise<TimedRun> => {
    const entry = all[index];
    const start = performance.now();
    const result = await run();
    if (!entry) return result;
    entry.spentMs += performance.now() - start;
    record(entry, result, keep);
    if (keep && entry.samples.length === 1 && options.repsFor)
      reps[index] = Math.min(options.reps, options.repsFor(result.ms));
    return result;
  };
  const { warmUp } = options;
  if (warmUp !== undefined) {
    for (const [index, adapter] of adapters.entries()) {
      const entry = all[index];
      if (!entry) continue;
      const first = await timed(
        index,
        () => timeRun(adapter, warmUp.dag, spec, warmUp.expected, limits[index]),
        false,
      );
      if (warmUp.repeat === undefined) continue;
      await warmUntil(
        warmUp.repeat,
        async () => {
          if (entry.error !== undefined || entry.tooSlow !== undefined) return undefined;
          const run = await timed(index, () => timeRun(adapter, dag, spec, expected, limits[index]), false);
          return run.error === undefined ? run.ms : undefined;
        },
        first.ms,
      );
    }
  }
  for (let rep = 0; rep < options.reps; rep++) {
    for (const [index, adapter] of adapters.entries()) {
      const entry = all[index];
      if (!entry || entry.error !== undefined || entry.tooSlow !== undefined || rep >= (reps[index] ?? 0))
        continue;
      await timed(index, () => timeRun(adapter, dag, spec, expected, limits[index]), true);
    }
  }
  return all;
}

function record(entry: EngineSamples, run: TimedRun, keep: boolean): void {
  if (run.timedOut) entry.tooSlow = run.error ?? "too slow";
  else if (run.error !== undefined) entry.error = run.error;
  else if (keep) entry.samples.push(run.ms);
}
