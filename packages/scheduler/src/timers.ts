/** The timer functions the scheduler uses (inject fakes in tests; the default reads the globals at call time). */
export interface Timers {
  /** Schedules `callback` after `ms` milliseconds; returns a handle. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a handle returned by `setTimeout`. */
  clearTimeout(handle: unknown): void;
}

/** The global timers, looked up at each call (so `vi.useFakeTimers()` applies). */
export const systemTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};
