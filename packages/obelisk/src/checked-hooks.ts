import { ObeliskError } from "@obelisk/core";
import { type Timers, toRecordedError } from "@obelisk/scheduler";
import type { EngineOptions } from "./engine-types.js";

/** The largest time a Date can hold, in ms from the epoch. */
const MAX_DATE_MS = 8.64e15;

/**
 * `hook`, checked on every use: one that throws, or answers something `accepts` refuses, throws USAGE
 * naming the hook (`name`) and what it must return (`want`).
 */
function checked<T>(
  name: string,
  want: { readonly what: string; readonly hint: string },
  hook: () => unknown,
  accepts: (value: unknown) => value is T,
): () => T {
  return () => {
    let value: unknown;
    try {
      value = hook();
    } catch (error) {
      throw new ObeliskError("USAGE", `the engine's ${name}() threw`, { cause: error, hint: want.hint });
    }
    if (!accepts(value))
      throw new ObeliskError(
        "USAGE",
        `the engine's ${name}() must return ${want.what}, got ${shownReading(value)}`,
        { hint: want.hint },
      );
    return value;
  };
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

/**
 * A time a Date can hold, from the epoch on (not NaN, Infinity, "1", 1e300 or a negative number: a time
 * before 1970 is a clock's bug, such as a difference of two readings — decision 0061). A clock may go
 * backwards: each reading stands as read (durations are clamped at 0; decision 0061).
 */
const isTime = (value: unknown): value is number =>
  typeof value === "number" && value >= 0 && value <= MAX_DATE_MS;

/** What an injected clock, random source and run id generator must answer, and a hint showing one. */
const CLOCK = {
  what: `ms since the epoch (a number from 0 to ${MAX_DATE_MS}, as Date.now() answers)`,
  hint: 'now: () => Date.now(), or in a test a clock that answers a number of ms: let t = Date.parse("2026-01-01T00:00:00Z"); now: () => t',
};
const RANDOM = {
  what: "a number in [0, 1)",
  hint: "random: Math.random, or in a test a fixed value in [0, 1): random: () => 0.5",
};
const RUN_ID = {
  what: "a non-empty string",
  hint: 'generateId: () => crypto.randomUUID(), or in a test a counter: let n = 0; generateId: () => "run-" + ++n',
};
/** A number in [0, 1): retry jitter from anything else would exceed `maxDelayMs`. */
const isUnitInterval = (value: unknown): value is number =>
  typeof value === "number" && value >= 0 && value < 1;
const isNonEmptyString = (value: unknown): value is string => typeof value === "string" && value.length > 0;

/** USAGE for an injected timer function (`timers.setTimeout`) that threw `error`. */
function timerThrew(name: string, error: unknown): ObeliskError {
  const { message } = toRecordedError(error);
  return new ObeliskError("USAGE", `the engine's timers.${name} threw: ${message}`, { cause: error });
}

/**
 * Injected timers checked on every use: a `setTimeout` or `clearTimeout` that throws throws USAGE naming
 * it, with its message (without the check the runner took the error for the store's: STORE_ERROR).
 */
function checkedTimers(timers: Timers): Timers {
  return {
    setTimeout: (callback, ms) => {
      try {
        return timers.setTimeout(callback, ms);
      } catch (error) {
        throw timerThrew("setTimeout", error);
      }
    },
    clearTimeout: (handle) => {
      try {
        timers.clearTimeout(handle);
      } catch (error) {
        throw timerThrew("clearTimeout", error);
      }
    },
  };
}

/**
 * The options with the injected clock, random source, id generator and timers checked on every use (the
 * defaults need no check): a random source that threw inside a retry failed the run as a STORE_ERROR.
 */
export function withCheckedHooks(options: EngineOptions): EngineOptions {
  const { now, random, generateId, timers } = options;
  return {
    ...options,
    ...(timers === undefined ? {} : { timers: checkedTimers(timers) }),
    ...(now === undefined ? {} : { now: checked("now", CLOCK, now, isTime) }),
    ...(random === undefined ? {} : { random: checked("random", RANDOM, random, isUnitInterval) }),
    ...(generateId === undefined
      ? {}
      : { generateId: checked("generateId", RUN_ID, generateId, isNonEmptyString) }),
  };
}
