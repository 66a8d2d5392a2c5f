import type { RunLock, StateStore } from "@obelisk/state";

/**
 * A store an engine "dies" on, as a process that is gone: after `crash()` none of that engine's calls reach
 * the store (they never settle) and the thread locks it took are released, a lock still being taken when
 * it crashed as soon as it is granted.
 */
export function crashable(store: StateStore): { readonly store: StateStore; crash(): void } {
  let dead = false;
  const locks: RunLock[] = [];
  const never = () => new Promise<never>(() => {});
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (dead) return never();
        const result: unknown = value.apply(target, args);
        if (key !== "lockThread") return result;
        return (result as Promise<RunLock>).then((lock) => {
          if (!dead) return locks.push(lock) && lock;
          lock.release();
          return never();
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
