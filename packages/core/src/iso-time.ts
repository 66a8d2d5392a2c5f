let lastMs = Number.NaN;
let lastIso = "";
let previousMs = Number.NaN;
let previousIso = "";

const DAY_MS = 86_400_000;
/** The UTC day whose ISO date text is cached: its first millisecond, and `YYYY-MM-DDT`. */
let dayStart = Number.NaN;
let dayPrefix = "";
/** `00`…`99` and `000`…`999`: the time of day's fields, looked up instead of padded. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, "0"));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, "0"));

/**
 * `Date.prototype.toISOString` of an epoch-ms time. Within the UTC day last formatted by `Date` (years
 * 0000–9999), the time of day is put after the cached date by arithmetic: ~1,100 instructions instead of
 * `Date`'s ~8,600 (docs/performance/scheduler.md, stop 42). Same text, same errors.
 */
function formatIso(ms: number): string {
  const whole = Math.trunc(ms); // as `Date` keeps it (TimeClip)
  let inDay = whole - dayStart;
  if (!(inDay >= 0 && inDay < DAY_MS)) {
    const iso = new Date(ms).toISOString(); // throws RangeError for an invalid time, as before
    if (iso.length === 24) {
      dayStart = whole - (((whole % DAY_MS) + DAY_MS) % DAY_MS);
      dayPrefix = iso.slice(0, 11);
    }
    return iso;
  }
  const hours = Math.floor(inDay / 3_600_000);
  inDay -= hours * 3_600_000;
  const minutes = Math.floor(inDay / 60_000);
  inDay -= minutes * 60_000;
  const seconds = Math.floor(inDay / 1000);
  return `${dayPrefix}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[inDay - seconds * 1000]}Z`;
}

/**
 * The ISO text of an epoch-ms time, memoized for the last two milliseconds: in a busy run most calls start,
 * end and commit within a few milliseconds (start and end times alternate), so they share the strings
 * instead of formatting each.
 */
export function isoTime(ms: number): string {
  if (ms === lastMs) return lastIso;
  if (ms === previousMs) return previousIso;
  const iso = formatIso(ms);
  previousMs = lastMs;
  previousIso = lastIso;
  lastMs = ms;
  lastIso = iso;
  return iso;
}
