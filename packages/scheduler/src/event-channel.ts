import type { RunEvent } from "./run-event.js";

/**
 * An async iterator over a run's events. Buffers from the moment it is created; ends after `run-end`
 * (or when `end()` is called). Create it before the run starts emitting to see every event.
 */
export class EventChannel implements AsyncIterable<RunEvent> {
  private readonly buffer: RunEvent[] = [];
  private readonly pullers: ((result: IteratorResult<RunEvent>) => void)[] = [];
  private ended = false;

  /** Observer to subscribe to the run's event hub. */
  readonly push = (event: RunEvent): void => {
    if (this.ended) return;
    const puller = this.pullers.shift();
    if (puller !== undefined) puller({ value: event, done: false });
    else this.buffer.push(event);
    if (event.type === "run-end") this.end();
  };

  /** Ends the stream (pending readers get `done`). */
  end(): void {
    this.ended = true;
    for (const puller of this.pullers.splice(0)) puller({ value: undefined, done: true });
  }

  /** Async iteration over the events. */
  [Symbol.asyncIterator](): AsyncIterator<RunEvent> {
    return {
      next: () => {
        const event = this.buffer.shift();
        if (event !== undefined) return Promise.resolve({ value: event, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => this.pullers.push(resolve));
      },
      return: () => {
        this.end();
        this.buffer.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
