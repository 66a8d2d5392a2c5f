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
  want: string,
  hook: () => unknown,
  accepts: (value: unknown) => value is T,
): () => T {
  return () => {
    let value: unknown;
    try {
      value = hook();
    } catch (error) {
      throw new ObeliskError("USAGE", `the engine's ${name}() threw`, { cause: error });
    }
    if (!accepts(value))
      throw new ObeliskError("USAGE", `the engine's ${name}() must return ${want}, got ${String(value)}`);
    return value;
  };
}

/** A time (ms since the epoch) a Date can hold (not NaN, "1" or 1e300). */
const isTime = (value: unknown): value is number =>
  typeof value === "number" && Math.abs(value) <= MAX_DATE_MS;
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
    ...(now === undefined ? {} : { now: checked("now", "ms since the epoch", now, isTime) }),
    ...(random === undefined
      ? {}
      : { random: checked("random", "a number in [0, 1)", random, isUnitInterval) }),
    ...(generateId === undefined
      ? {}
      : { generateId: checked("generateId", "a non-empty string", generateId, isNonEmptyString) }),
  };
}
