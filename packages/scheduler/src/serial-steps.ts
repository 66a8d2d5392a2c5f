import type { Awaitable } from "@obelisk/state";
import { isThenable } from "./awaitable.js";

/**
 * Runs steps one after another: synchronously while every step is synchronous (a sync store pays no
 * await), otherwise chained behind the pending one. A step that fails asynchronously is reported to
 * `onError` with its argument (what it was about); one that fails synchronously throws to the caller.
 */
export class SerialSteps<A> {
  private tail: Promise<void> | undefined;

  constructor(private readonly onError: (error: unknown, arg: A) => void) {}

  /** Runs `step(arg)` now if nothing is pending, else after the pending steps. */
  run<B extends A>(step: (arg: B) => Awaitable<void>, arg: B): void {
    const tail = this.tail;
    if (tail !== undefined) {
      this.track(
        tail.then(() => step(arg)),
        arg,
      );
      return;
    }
    const result = step(arg);
    if (isThenable(result)) this.track(Promise.resolve(result), arg);
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
