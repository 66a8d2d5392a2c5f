import type { Adapter, RunSpec } from "./adapters/adapter.js";
import type { Dag } from "./dag.js";
import { firstMismatch } from "./work.js";

/** One timed run: wall time of `run()` only, and whether the results were right. */
export interface TimedRun {
  /** Milliseconds spent in `run()`. */
  readonly ms: number;
  /** Why the run does not count (wrong results or a thrown error). */
  readonly error?: string;
}

const collectGarbage = (globalThis as { gc?: () => void }).gc;

/** Prepares, runs (timed), checks against `expected`, and disposes one run. Never throws. */
export async function timeRun(
  adapter: Adapter,
  dag: Dag,
  spec: RunSpec,
  expected: readonly number[],
): Promise<TimedRun> {
  collectGarbage?.();
  let prepared: Awaited<ReturnType<Adapter["prepare"]>> | undefined;
  try {
    prepared = await adapter.prepare(dag, spec);
    const start = performance.now();
    const results = await prepared.run();
    const ms = performance.now() - start;
    const mismatch = firstMismatch(expected, results);
    if (mismatch >= 0) {
      return { ms, error: `wrong result at node ${mismatch}: ${results[mismatch]} ≠ ${expected[mismatch]}` };
    }
    return { ms };
  } catch (error) {
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
  /** First error seen; samples stop counting once set. */
  error?: string;
}

/**
 * Runs every adapter on the same case: one warm-up each (unless `warmUp` is false), then `reps`
 * rounds in which the engines run in the same order (interleaved, so drift hits all alike).
 * `repsFor` may lower the repetitions of an engine whose warm-up was slow.
 */
export async function measureInterleaved(
  adapters: readonly Adapter[],
  dag: Dag,
  spec: RunSpec,
  expected: readonly number[],
  options: {
    readonly reps: number;
    readonly warmUp: boolean;
    readonly repsFor?: (warmUpMs: number) => number;
  },
): Promise<EngineSamples[]> {
  const all: EngineSamples[] = adapters.map((adapter) => ({ engine: adapter.name, samples: [] }));
  const reps = adapters.map(() => options.reps);
  if (options.warmUp) {
    for (const [index, adapter] of adapters.entries()) {
      const warm = await timeRun(adapter, dag, spec, expected);
      const entry = all[index];
      if (entry && warm.error !== undefined) entry.error = warm.error;
      if (options.repsFor) reps[index] = Math.min(options.reps, options.repsFor(warm.ms));
    }
  }
  for (let rep = 0; rep < options.reps; rep++) {
    for (const [index, adapter] of adapters.entries()) {
      const entry = all[index];
      if (!entry || entry.error !== undefined || rep >= (reps[index] ?? 0)) continue;
      const run = await timeRun(adapter, dag, spec, expected);
      if (run.error !== undefined) entry.error = run.error;
      else entry.samples.push(run.ms);
    }
  }
  return all;
}
