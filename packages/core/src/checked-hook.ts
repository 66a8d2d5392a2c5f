import { ObeliskError } from "./obelisk-error.js";

/** The largest time a Date can hold, in ms from the epoch. */
const MAX_DATE_MS = 8.64e15;

/** What an injected hook must answer (`what`), and a hint showing a working one, for its refusals. */
export interface HookAnswer {
  readonly what: string;
  readonly hint: string;
}

/** What an injected clock must answer, and a hint showing one (decision 0061). */
const CLOCK_ANSWER: HookAnswer = {
  what: `ms since the epoch (a number from 0 to ${MAX_DATE_MS}, as Date.now() answers)`,
  hint: 'now: () => Date.now(), or in a test a clock that answers a number of ms: let t = Date.parse("2026-01-01T00:00:00Z"); now: () => t',
};

/**
 * A time a Date can hold, from the epoch on (not NaN, Infinity, "1", 1e300 or a negative number: a time
 * before 1970 is a clock's bug, such as a difference of two readings — decision 0061). A clock may go
 * backwards: each reading stands as read.
 */
const isClockReading = (value: unknown): value is number =>
  typeof value === "number" && value >= 0 && value <= MAX_DATE_MS;

/**
 * `hook`, checked on every use: one that throws, or answers something `accepts` refuses, throws USAGE
 * naming the hook (`name`, e.g. `the engine's random()`) and what it must return (`want`).
 */
export function checkedHook<T>(
  name: string,
  want: HookAnswer,
  hook: () => unknown,
  accepts: (value: unknown) => value is T,
): () => T {
  return () => {
    let value: unknown;
    try {
      value = hook();
    } catch (error) {
      throw new ObeliskError("USAGE", `${name} threw`, { cause: error, hint: want.hint });
    }
    if (!accepts(value))
      throw new ObeliskError("USAGE", `${name} must return ${want.what}, got ${shownReading(value)}`, {
        hint: want.hint,
      });
    return value;
  };
}

/** The clocks {@link checkedClock} made. */
const checkedClocks = new WeakSet<() => unknown>();

/**
 * An injected clock checked on every reading (decision 0061): a reading that is no number from 0 to
 * 8.64e15, or a clock that throws, is USAGE at that reading naming it (`name`: `the engine's now()`,
 * `the store's now()`), with a hint showing a working clock.
 */
export function checkedClock(name: string, now: () => unknown): () => number {
  // a clock checked already (the engine's, given to the memory store it makes) keeps its own name
  if (checkedClocks.has(now)) return now as () => number;
  const checked = checkedHook(name, CLOCK_ANSWER, now, isClockReading);
  checkedClocks.add(checked);
  return checked;
}

/** A hook's answer as a refusal shows it: a string quoted (`"1"`, not 1), anything else as text. */
function shownReading(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  try {
    return String(value);
  } catch {
    return typeof value;
  }
}
