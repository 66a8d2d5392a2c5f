import type { RetentionPolicy } from "./store-types.js";

/** A clock: milliseconds since the epoch. Injected so tests never wait for real time. */
export type Clock = () => number;

/** Options shared by every backend. */
export interface StoreOptions {
  /** Clock used for timestamps, expiry and lock heartbeats. Default `Date.now`. */
  readonly now?: Clock | undefined;
  /**
   * The store's own retention policy, used for expiry on read (`expireStale`, `getCallOutput`) and as the
   * default of `applyRetention` fields left out. Fields left out keep their defaults
   * ({@link DEFAULT_RETENTION}: `maxCallOutputs: 100`, `maxCallOutputAgeMs: 3_600_000`); `Infinity` disables one.
   */
  readonly retention?: RetentionPolicy | undefined;
  /**
   * Largest `result` (bytes of JSON) a call record keeps once nothing its call wrote is still in the
   * thread (overwritten, evicted, removed, reset; a `satisfied` call that wrote nothing): a larger one is
   * dropped (`droppedResultBytes`) and the record no longer makes a re-sent call `satisfied` — the call runs
   * again instead of writing the recorded value back. Default {@link DEFAULT_RECORD_RESULT_BYTES} (1,024);
   * `Infinity` keeps every result (unbounded history, as before decision record 0029); `0` keeps none.
   */
  readonly recordResultBytes?: number | undefined;
  /**
   * Largest `params` (bytes of JSON) a call record keeps (decision record 0034): a larger one keeps its
   * parts of at most this size and `null` for the larger ones (all of it goes when that is still larger),
   * and the record gains `droppedParamsBytes`. Nothing the engine does reads a record's parameters but
   * `resume`'s check of a call that reads its own target, which masks what it reads: a large value there
   * still matches. Default {@link DEFAULT_RECORD_PARAMS_BYTES} (4,096); `Infinity` keeps all; `0` none.
   */
  readonly recordParamsBytes?: number | undefined;
  /**
   * Most tombstones a thread keeps (decision record 0034): past it, the oldest evictions' go, down to
   * 90% of it (a bound under 10: exactly to it), and reading such a reference answers `REF_UNRESOLVED`
   * without the `REF_EVICTED` hint. Default {@link DEFAULT_MAX_TOMBSTONES} (1,000: the last 900 evictions
   * at least answer `REF_EVICTED`); `Infinity` keeps every one (as before); `0` keeps none.
   */
  readonly maxTombstones?: number | undefined;
}

/** Default of {@link StoreOptions.recordParamsBytes}: parameters of at most 4 KiB are kept whole. */
export const DEFAULT_RECORD_PARAMS_BYTES = 4096;

/** Default of {@link StoreOptions.maxTombstones}: a thread keeps at most 1,000 tombstones (at least 900). */
export const DEFAULT_MAX_TOMBSTONES = 1000;

/** Default of {@link StoreOptions.recordResultBytes}: results of at most 1 KiB are kept for re-sent plans. */
export const DEFAULT_RECORD_RESULT_BYTES = 1024;

/** Default retention of stored call outputs (like the earlier tool-output manager): 100 outputs, 60 minutes. */
export const DEFAULT_RETENTION: RetentionPolicy = { maxCallOutputs: 100, maxCallOutputAgeMs: 60 * 60 * 1000 };
