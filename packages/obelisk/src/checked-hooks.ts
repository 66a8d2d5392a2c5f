import { ObeliskError } from "@obelisk/core";
import type { EngineOptions } from "./engine-types.js";

/** The largest time a Date can hold, in ms from the epoch. */
const MAX_DATE_MS = 8.64e15;

/**
 * A clock that throws USAGE when the injected one answers something that is not a time (NaN, "1", 1e300)
 * or throws itself.
 */
function checkedClock(now: () => number): () => number {
  return () => {
    let time: unknown;
    try {
      time = now();
    } catch (error) {
      throw new ObeliskError("USAGE", "the engine's now() threw", { cause: error });
    }
    if (typeof time !== "number" || !(Math.abs(time) <= MAX_DATE_MS))
      throw new ObeliskError(
        "USAGE",
        `the engine's now() must return ms since the epoch, got ${String(time)}`,
      );
    return time;
  };
}

/** An id generator that throws USAGE when the injected one answers something other than a non-empty string. */
function checkedIds(generateId: () => string): () => string {
  return () => {
    const id: unknown = generateId();
    if (typeof id !== "string" || id.length === 0)
      throw new ObeliskError(
        "USAGE",
        `the engine's generateId() must return a non-empty string, got ${String(id)}`,
      );
    return id;
  };
}

/**
 * A random source that throws USAGE when the injected one throws or answers outside [0, 1): retry jitter
 * from it would exceed `maxDelayMs` (a throw from inside a retry failed the run as a STORE_ERROR).
 */
function checkedRandom(random: () => number): () => number {
  return () => {
    let value: unknown;
    try {
      value = random();
    } catch (error) {
      throw new ObeliskError("USAGE", "the engine's random() threw", { cause: error });
    }
    if (typeof value !== "number" || !(value >= 0 && value < 1))
      throw new ObeliskError(
        "USAGE",
        `the engine's random() must return a number in [0, 1), got ${String(value)}`,
      );
    return value;
  };
}

/** The options with the injected clock, random source and id generator checked on every use (the defaults need no check). */
export function withCheckedHooks(options: EngineOptions): EngineOptions {
  return {
    ...options,
    ...(options.now === undefined ? {} : { now: checkedClock(options.now) }),
    ...(options.random === undefined ? {} : { random: checkedRandom(options.random) }),
    ...(options.generateId === undefined ? {} : { generateId: checkedIds(options.generateId) }),
  };
}
