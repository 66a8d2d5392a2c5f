let lastMs = Number.NaN;
let lastIso = "";
let previousMs = Number.NaN;
let previousIso = "";

/**
 * The ISO text of an epoch-ms time, memoized for the last two milliseconds: in a busy run most calls start,
 * end and commit within a few milliseconds (start and end times alternate), so they share the strings
 * instead of formatting a Date each.
 */
export function isoTime(ms: number): string {
  if (ms === lastMs) return lastIso;
  if (ms === previousMs) return previousIso;
  previousMs = lastMs;
  previousIso = lastIso;
  lastMs = ms;
  lastIso = new Date(ms).toISOString();
  return lastIso;
}
