import type { Awaitable } from "@obelisk/state";

/** True for promises and other thenables. */
export function isThenable<T>(value: Awaitable<T> | unknown): value is PromiseLike<T> {
  return (
    typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function"
  );
}

/** Continues with a value that may be a promise: synchronously when it is not (the hot path pays no await). */
export function after<T>(value: Awaitable<T>, next: (value: T) => Awaitable<void>): Awaitable<void> {
  return isThenable<T>(value) ? Promise.resolve(value).then(next) : next(value);
}
