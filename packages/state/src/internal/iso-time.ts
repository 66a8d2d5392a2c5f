let lastMs = Number.NaN;
let lastIso = "";

/**
 * The ISO text of an epoch-ms time, remembering the last one: commits within one millisecond (most of
 * them, in a busy run) share the string instead of formatting a Date each.
 */
export function isoTime(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
