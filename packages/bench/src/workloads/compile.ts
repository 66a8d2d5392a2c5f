import { createEngine } from "obelisk";
import { dagToPlan, stepTool } from "../adapters/obelisk.js";
import type { BenchConfig } from "../bench-config.js";
import { type DagShape, generateDag } from "../dag.js";
import { warmUntil } from "../measure.js";
import { median, round } from "../stats.js";
import { work } from "../work.js";

/** Validation time of one plan size. */
export interface CompileFigure {
  readonly size: number;
  /** Validations per sample: every sample covers as many calls as one validation of the largest plan. */
  readonly batch: number;
  /** Median of the samples, per validation. */
  readonly medianMs: number;
  readonly usPerCall: number;
  /** Each sample's time per validation (its batch's time ÷ `batch`). */
  readonly samplesMs: readonly number[];
}

/** Validation of one shape at every size, with the growth of the per-call cost. */
export interface CompileCase {
  readonly shape: DagShape;
  readonly figures: readonly CompileFigure[];
  /** µs per call at the largest size / µs per call at the smallest (1 = linear). */
  readonly growth: number;
  readonly error?: string;
}

/**
 * Workload 3: Obelisk `validate` (compile + every check) on 1k and 10k-call plans. Each sample times a
 * batch of validations covering as many calls as one validation of the largest plan (ten of 1k for one of
 * 10k), so that every size pays for the garbage collection its own calls cause: a lone 1k validation
 * usually runs between two scavenges and leaves its garbage to a later one, which made the small size's
 * median look cheaper per call than the work it costs.
 */
export async function runCompile(config: BenchConfig, log: (line: string) => void): Promise<CompileCase[]> {
  const engine = createEngine({ tools: [stepTool(work)] });
  const cases: CompileCase[] = [];
  try {
    for (const shape of config.shapes) {
      const figures: CompileFigure[] = [];
      let error: string | undefined;
      const largest = Math.max(...config.compile.sizes);
      for (const [sizeIndex, size] of config.compile.sizes.entries()) {
        const batch = Math.max(1, Math.round(largest / size));
        const plan = { type: "plan", plan: dagToPlan(generateDag(shape, size, config.seed)) };
        const samples: number[] = [];
        // Warm-up at the first size (the larger sizes are warmed by it); fewer repetitions for slow runs.
        if (sizeIndex === 0) {
          const validateMs = async (): Promise<number | undefined> => {
            const start = performance.now();
            const result = await engine.validate(plan);
            return result.ok ? performance.now() - start : undefined;
          };
          const first = await validateMs();
          if (first !== undefined) await warmUntil(config.warmUp, validateMs, first);
        }
        let reps = config.compile.reps;
        for (let rep = 0; rep < reps; rep++) {
          const start = performance.now();
          for (let run = 0; run < batch; run++) {
            const result = await engine.validate(plan);
            if (!result.ok) error = `validate not ok: ${result.diagnostics[0]?.code ?? "?"}`;
          }
          const ms = (performance.now() - start) / batch;
          samples.push(ms);
          if (rep === 0 && ms > config.slowRuns.ms) reps = Math.min(reps, config.slowRuns.reps);
        }
        const ms = median(samples);
        figures.push({
          size,
          batch,
          medianMs: round(ms),
          usPerCall: round((ms * 1000) / size),
          samplesMs: samples.map((s) => round(s)),
        });
      }
      const first = figures[0]?.usPerCall ?? Number.NaN;
      const last = figures.at(-1)?.usPerCall ?? Number.NaN;
      cases.push({ shape, figures, growth: round(last / first), ...(error === undefined ? {} : { error }) });
      log(
        `compile ${shape}: ${figures.map((f) => `${f.size}=${f.usPerCall}µs`).join(", ")} growth ${round(last / first)}`,
      );
    }
  } finally {
    await engine.close();
  }
  return cases;
}
