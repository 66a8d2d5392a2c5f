/** A measured run time at one size. */
export interface SizedTime {
  readonly size: number;
  readonly ms: number;
}

/**
 * Predicts the run time at `size` from earlier sizes: t = t_last · (size / size_last)^α, with α the
 * growth exponent between the last two sizes (clamped to [1, 3]), or 2 (quadratic) when only one is known.
 * Pessimistic on purpose: a run cannot be stopped once started (a loop of microtasks never lets a timer fire).
 */
export function predictRunMs(history: readonly SizedTime[], size: number): number | undefined {
  const last = history.at(-1);
  if (last === undefined) return undefined;
  const before = history.at(-2);
  let exponent = 2;
  if (before !== undefined && before.ms > 0 && last.size !== before.size) {
    exponent = Math.log(last.ms / before.ms) / Math.log(last.size / before.size);
    exponent = Math.min(3, Math.max(1, exponent));
  }
  return last.ms * (size / last.size) ** exponent;
}
