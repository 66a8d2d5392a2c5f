import type { Awaitable } from "@obelisk/state";
import { isThenable } from "./awaitable.js";

/**
 * Runs steps one after another: synchronously while every step is synchronous (a sync store pays no
 * await), otherwise chained behind the pending one. A step that fails asynchronously is reported to
 * `onError` with its argument (what it was about); one that fails synchronously throws to the caller.
 */
export class SerialSteps<A> {
  private tail: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly onError: (error: unknown, arg: A) => void) {}

  /** Runs `step(arg)` now if nothing is pending, else after the pending steps; nothing once stopped. */
  run<B extends A>(step: (arg: B) => Awaitable<void>, arg: B): void {
    if (this.stopped) return;
    const tail = this.tail;
    if (tail !== undefined) {
      this.track(
        tail.then(() => (this.stopped ? undefined : step(arg))),
        arg,
      );
      return;
    }
    const result = step(arg);
    if (isThenable(result)) this.track(Promise.resolve(result), arg);
  }

  /** No step runs from now on, not even one already waiting behind a pending step (the one running ends). */
  stop(): void {
    this.stopped = true;
  }

  private track(promise: Promise<void>, arg: A): void {
    const tracked: Promise<void> = promise.then(
      () => {
        if (this.tail === tracked) this.tail = undefined;
      },
      (error: unknown) => this.onError(error, arg),
    );
    this.tail = tracked;
  }
}
