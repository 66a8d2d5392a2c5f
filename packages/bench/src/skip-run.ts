import type { BenchConfig } from "./bench-config.js";
import { predictRunMs, type SizedTime } from "./predict-run.js";

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
 * skipped when capped, after a run over the time limit, or when predicted over `config.maxRunMs`.
 * With one size known the growth is unknown: the skip then rests on linear growth, a floor.
 */
export function skipRun(
  engine: string,
  size: number,
  config: Pick<BenchConfig, "caps" | "maxRunMs">,
  known: readonly SizedTime[],
): RunSkip | undefined {
  const cap = config.caps[engine];
  if (cap !== undefined && size > cap.maxSize) return { reason: cap.reason };
  const last = known.at(-1);
  if (last !== undefined && !Number.isFinite(last.ms))
    return { reason: `a run at ${last.size.toLocaleString("en-US")} calls went over the time limit` };
  const limit = `limit ${seconds(config.maxRunMs)}`;
  if (known.length === 1 && last !== undefined) {
    const linear = last.ms * (size / last.size);
    if (linear > config.maxRunMs) {
      return {
        reason: `predicted ≥ ${seconds(linear)} per run even at linear growth from its ${last.size.toLocaleString("en-US")}-call time (${limit})`,
        predictedMs: Math.round(linear),
      };
    }
  }
  const predicted = predictRunMs(known, size);
  if (predicted !== undefined && predicted > config.maxRunMs) {
    return {
      reason: `predicted ≈ ${seconds(predicted)} per run from its smaller sizes (${limit})`,
      predictedMs: Math.round(predicted),
    };
  }
  return undefined;
}
