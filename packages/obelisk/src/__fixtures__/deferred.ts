/** A promise with its resolve and reject exposed (controllable in tests: no sleeps). */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** Creates a controllable promise. */
export function deferred<T = unknown>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Flushes microtasks until `condition` holds (no timers, no real waiting); throws if it never does. */
export async function until(condition: () => boolean, turns = 5000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (condition()) return;
    await Promise.resolve();
  }
  throw new Error("condition never became true");
}
