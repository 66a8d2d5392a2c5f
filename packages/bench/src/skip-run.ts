import { type BenchConfig, runLimits } from "./bench-config.js";
import { growthExponent, predictRunMs, type SizedTime } from "./predict-run.js";

/** Why an overhead run is skipped, with the predicted run time (ms) behind it when there is one. */
export interface RunSkip {
  readonly reason: string;
  readonly predictedMs?: number;
}

/** Seconds with one decimal, for skip reasons. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Decides whether `engine` runs at `size` from its cap and its times at smaller sizes (`known`):
 * skipped when capped, after a run over the time limit, or when predicted over its limit (`config.maxRunMs`;
 * the engine under test's own, `config.underTest.maxRunMs`) (with one size known, on linear growth: a floor).
 */
export function skipRun(
  engine: string,
  size: number,
  config: Pick<BenchConfig, "caps" | "maxRunMs" | "runTimeoutMs" | "underTest">,
  known: readonly SizedTime[],
): RunSkip | undefined {
  const cap = config.caps[engine];
  if (cap !== undefined && size > cap.maxSize) return { reason: cap.reason };
  const last = known.at(-1);
  if (last !== undefined && !Number.isFinite(last.ms))
    return { reason: `a run at ${last.size.toLocaleString("en-US")} calls went over the time limit` };
  const { maxRunMs } = runLimits(engine, config);
  const predicted = predictRunMs(known, size);
  if (predicted === undefined || predicted <= maxRunMs || last === undefined) return undefined;
  const exponent = growthExponent(known);
  const basis =
    known.length === 1 || exponent === 1
      ? `linear growth from its ${last.size.toLocaleString("en-US")}-call time`
      : `growth ∝ size^${exponent.toFixed(2)} measured at its smaller sizes`;
  return {
    reason: `predicted ${known.length === 1 ? "≥" : "≈"} ${seconds(predicted)} per run (${basis}; limit ${seconds(maxRunMs)})`,
    predictedMs: Math.round(predicted),
  };
}
