import type { RunLock, StateStore } from "@obelisk/state";

/**
 * A store an engine "dies" on: after `crash()` none of that engine's calls reach the store (they never
 * settle, as in a process that is gone) and the locks it held are released, as a dead process's are.
 */
export function crashable(store: StateStore): { readonly store: StateStore; crash(): void } {
  let dead = false;
  const locks: RunLock[] = [];
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (dead) return new Promise(() => {});
        const result: unknown = value.apply(target, args);
        if (key !== "lockThread") return result;
        return (result as Promise<RunLock>).then((lock) => {
          locks.push(lock);
          return lock;
        });
      };
    },
  });
  const crash = () => {
    dead = true;
    for (const lock of locks) lock.release();
  };
  return { store: proxy, crash };
}
