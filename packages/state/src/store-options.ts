import type { RetentionPolicy } from "./store-types.js";

/** A clock: milliseconds since the epoch. Injected so tests never wait for real time. */
export type Clock = () => number;

/** Options shared by every backend. */
export interface StoreOptions {
  /** Clock used for timestamps, expiry and lock heartbeats. Default `Date.now`. */
  readonly now?: Clock;
  /**
   * The store's own retention policy, used for expiry on read (`expireStale`, `getCallOutput`) and as the
   * default of `applyRetention` fields left out. Fields left out keep their defaults
   * ({@link DEFAULT_RETENTION}: `maxCallOutputs: 100`, `maxCallOutputAgeMs: 3_600_000`); `Infinity` disables one.
   */
  readonly retention?: RetentionPolicy;
}

/** Default retention of stored call outputs (like the earlier tool-output manager): 100 outputs, 60 minutes. */
export const DEFAULT_RETENTION: RetentionPolicy = { maxCallOutputs: 100, maxCallOutputAgeMs: 60 * 60 * 1000 };
