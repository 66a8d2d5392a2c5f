import type { StateStore } from "@obelisk/state";
import { createMemoryStore } from "@obelisk/state";

/**
 * A store that persists nothing (the "no persistence" overhead figure): commits succeed at once and no
 * call is ever satisfied. Everything else is delegated to a memory store.
 */
export function createNullStore(): StateStore {
  const memory = createMemoryStore();
  return new Proxy(memory, {
    get(target, key, receiver) {
      if (key === "commitCall") return () => ({ ok: true });
      if (key === "findCompletedCall") return () => undefined;
      if (key === "getCallOutput") return () => undefined;
      return Reflect.get(target, key, receiver);
    },
  });
}
