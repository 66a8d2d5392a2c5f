import { checkedClock, checkedHook, type HookAnswer, ObeliskError } from "@obelisk/core";
import { type Timers, toRecordedError } from "@obelisk/scheduler";
import type { EngineOptions } from "./engine-types.js";

/** What an injected random source and run id generator must answer, and a hint showing one. */
const RANDOM: HookAnswer = {
  what: "a number in [0, 1)",
  hint: "random: Math.random, or in a test a fixed value in [0, 1): random: () => 0.5",
};
const RUN_ID: HookAnswer = {
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
    // the clock's check is the stores' too (decision 0061): it lives in core
    ...(now === undefined ? {} : { now: checkedClock("the engine's now()", now) }),
    ...(random === undefined
      ? {}
      : { random: checkedHook("the engine's random()", RANDOM, random, isUnitInterval) }),
    ...(generateId === undefined
      ? {}
      : { generateId: checkedHook("the engine's generateId()", RUN_ID, generateId, isNonEmptyString) }),
  };
}
