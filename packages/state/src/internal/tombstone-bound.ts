/**
 * How many tombstones a thread keeps once it has more than `max` (decision record 0034): the oldest go
 * down to 90% of `max` (a bound under 10 exactly to it), so the oldest are looked for once per tenth of
 * `max` evictions, not at every one — a SQLite thread sorts its tombstones to find them.
 */
export function tombstonesKept(max: number): number {
  return max - Math.floor(max / 10);
}
