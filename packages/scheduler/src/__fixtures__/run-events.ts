import type { CallCommit, CommitResult, StateStore } from "@obelisk/state";
import { createMemoryStore } from "@obelisk/state";
import { EventHub } from "../event-hub.js";
import type { RunEvent } from "../run-event.js";

/** A hub that records every event, and the events as short text (`call-end:b=failed`, `run-end=failed`). */
export function recordEvents(): { hub: EventHub; events: RunEvent[]; names: () => string[] } {
  const hub = new EventHub();
  const events: RunEvent[] = [];
  hub.subscribe((event) => {
    events.push(event);
  });
  return { hub, events, names: () => events.map(eventName) };
}

/** `type[:callId][=status]` of an event. */
function eventName(event: RunEvent): string {
  const call = "callId" in event ? `:${event.callId}` : "";
  const status = "status" in event ? `=${event.status}` : "";
  return `${event.type}${call}${status}`;
}

/**
 * A memory store whose `commitCall` number `failing` (1-based, counting every call) fails with `error`:
 * thrown at once (`sync`) or as a rejected promise (`async`); the others pass through. With `group`, the
 * store also has `commitCalls`, which fails the same way on its `failing`-th use.
 */
export function failingStore(
  failing: number,
  error: unknown,
  how: "sync" | "async" = "sync",
  group = false,
): StateStore {
  const inner = createMemoryStore();
  let commits = 0;
  const fail = (): never | Promise<never> => {
    if (how === "sync") throw error;
    return Promise.reject(error);
  };
  return new Proxy(inner, {
    get(target, property, receiver) {
      if (property === "commitCall")
        return (commit: CallCommit) => (++commits === failing ? fail() : target.commitCall(commit));
      if (property === "commitCalls" && group)
        return (batch: readonly CallCommit[]) =>
          ++commits === failing ? fail() : batch.map((commit) => target.commitCall(commit) as CommitResult);
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
