import type { Awaitable } from "@obelisk/state";
import { isThenable } from "./awaitable.js";

/**
 * Runs steps one after another: synchronously while every step is synchronous (a sync store pays no
 * await), otherwise chained behind the pending one. A failing step is reported to `onError`.
 */
export class SerialSteps {
  private tail: Promise<void> | undefined;

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Runs `step(arg)` now if nothing is pending, else after the pending steps. */
  run<A>(step: (arg: A) => Awaitable<void>, arg: A): void {
    const tail = this.tail;
    if (tail !== undefined) {
      this.track(tail.then(() => step(arg)));
      return;
    }
    const result = step(arg);
    if (isThenable(result)) this.track(Promise.resolve(result));
  }

  private track(promise: Promise<void>): void {
    const tracked: Promise<void> = promise.then(
      () => {
        if (this.tail === tracked) this.tail = undefined;
      },
      (error: unknown) => this.onError(error),
    );
    this.tail = tracked;
  }
}
