import { ObeliskError } from "@obelisk/core";
import type { RunEvent } from "./run-event.js";

/**
 * An async iterator over a run's events. Buffers from the moment it is created; ends after `run-end`
 * (or when `end()` is called). Create it before the run starts emitting to see every event. It can be
 * iterated once: a second iteration would share the events with the first (each seeing part of them), so
 * it is refused (`USAGE`); more observers subscribe with `onEvent`.
 */
export class EventChannel implements AsyncIterable<RunEvent> {
  private buffer: RunEvent[] = [];
  /** Index of the next buffered event to hand out (no `shift`: a long unread run stays linear). */
  private head = 0;
  private readonly pullers: ((result: IteratorResult<RunEvent>) => void)[] = [];
  private ended = false;
  private iterated = false;

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

  private take(): RunEvent | undefined {
    if (this.head === this.buffer.length) return undefined;
    const event = this.buffer[this.head++];
    if (this.head === this.buffer.length) {
      this.buffer = [];
      this.head = 0;
    }
    return event;
  }

  /** Async iteration over the events (once). */
  [Symbol.asyncIterator](): AsyncIterator<RunEvent> {
    if (this.iterated)
      throw new ObeliskError("USAGE", "a run's events can be iterated once", {
        hint: "iterate them in one place, or observe the run with onEvent (run options or createEngine)",
      });
    this.iterated = true;
    return {
      next: () => {
        const event = this.take();
        if (event !== undefined) return Promise.resolve({ value: event, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => this.pullers.push(resolve));
      },
      return: () => {
        this.end();
        this.buffer = [];
        this.head = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
