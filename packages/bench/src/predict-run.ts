/** A measured run time at one size. */
export interface SizedTime {
  readonly size: number;
  readonly ms: number;
}

/** Below this, a run time is mostly timer, GC and scheduling noise: too small to measure growth from. */
const MIN_MS_FOR_GROWTH = 50;

/**
 * The growth exponent α between the last two sizes (t ∝ size^α), clamped to [1, 3]; 1 (linear) when
 * only one size is known or the smaller time is under `MIN_MS_FOR_GROWTH` (noise, not growth).
 */
export function growthExponent(history: readonly SizedTime[]): number {
  const last = history.at(-1);
  const before = history.at(-2);
  if (
    last === undefined ||
    before === undefined ||
    before.ms < MIN_MS_FOR_GROWTH ||
    last.size === before.size
  )
    return 1;
  const exponent = Math.log(last.ms / before.ms) / Math.log(last.size / before.size);
  return Math.min(3, Math.max(1, exponent));
}

/**
 * Predicts the run time at `size` from earlier sizes: t = t_last · (size / size_last)^α, α from
 * `growthExponent`. With one size known this is the linear floor: engines known to grow faster are capped
 * instead (see the bench config), and a run that still goes over the time limit stops its engine.
 */
export function predictRunMs(history: readonly SizedTime[], size: number): number | undefined {
  const last = history.at(-1);
  if (last === undefined) return undefined;
  return last.ms * (size / last.size) ** growthExponent(history);
}
