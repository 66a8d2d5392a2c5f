/** A duration with a unit (`7d`, `12h`, `30m`, `90s`): `--older-than` and the retention ages count milliseconds, and refuse one with what it means. */
export const WITH_UNIT = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|min|h|d|w)\s*$/;
/** Milliseconds of each unit of {@link WITH_UNIT}. */
export const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};
