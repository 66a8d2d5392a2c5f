import type { Timers } from "obelisk";

/** Timers the test fires by hand (no real time passes, no fake global clock needed). */
export class ManualTimers implements Timers {
  private next = 1;
  private readonly pending = new Map<number, { callback: () => void; ms: number }>();

  setTimeout(callback: () => void, ms: number): unknown {
    const handle = this.next++;
    this.pending.set(handle, { callback, ms });
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Delays currently scheduled, in ms. */
  scheduled(): number[] {
    return [...this.pending.values()].map((timer) => timer.ms);
  }

  /** Fires every timer scheduled now (not those they schedule). Returns how many fired. */
  fireAll(): number {
    const due = [...this.pending.entries()];
    for (const [handle, timer] of due) {
      this.pending.delete(handle);
      timer.callback();
    }
    return due.length;
  }
}

/** A promise with its resolve function, for "the tool has started" signals. */
export function signal<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/**
 * Waits (one event-loop turn at a time, no real time) until `timers` holds at least `count` timers; fails
 * after `turns` turns instead of waiting forever when they never come.
 */
export async function scheduledTimers(
  timers: ManualTimers,
  count: number,
  turns = 10_000,
): Promise<number[]> {
  for (let turn = 0; turn < turns; turn++) {
    const scheduled = timers.scheduled();
    if (scheduled.length >= count) return scheduled;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`${count} timer(s) expected, ${timers.scheduled().length} scheduled after ${turns} turns`);
}
