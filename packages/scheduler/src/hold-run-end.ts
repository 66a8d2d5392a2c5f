import { EventHub } from "./event-hub.js";
import type { RunEvent } from "./run-event.js";

/** What {@link holdRunEnd} gives: the hub to run with, and the call that lets `run-end` through. */
export interface HeldRunEnd {
  /** The hub to give the runner (`RunnerOptions.events`). */
  readonly events: EventHub;
  /** Emits the held `run-end` to the host's hub now (or lets it through when it comes); idempotent. */
  readonly release: () => void;
}

/**
 * Holds a run's `run-end` back until `release()`: every other event reaches `hub` as it is emitted. A host
 * that finishes its own run record after the execution settles (or rejects) releases it then, so a `run-end`
 * observer reading the record sees it finished and `run-end` stays the last event. An idle `hub` is returned
 * as it is (the runner then builds no events).
 */
export function holdRunEnd(hub: EventHub): HeldRunEnd {
  if (hub.idle) return { events: hub, release: () => {} };
  const events = new EventHub();
  let held: RunEvent | undefined;
  let released = false;
  events.subscribe((event) => {
    if (event.type === "run-end" && !released) held = event;
    else hub.emit(event);
  });
  const release = (): void => {
    if (released) return;
    released = true;
    if (held !== undefined) hub.emit(held);
    held = undefined;
  };
  return { events, release };
}
