/** The `then` of a returned value; `null` when reading it throws (a hostile value, bug B5). */
export function thenOf(value: unknown): ((...args: unknown[]) => unknown) | undefined | null {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return undefined;
  try {
    const then = (value as { then?: unknown }).then;
    return typeof then === "function" ? (then as (...args: unknown[]) => unknown) : undefined;
  } catch {
    return null;
  }
}

/** Observes a rejection of `value` if it is a thenable whose answer is not wanted (never an unhandled rejection). */
export function observe(value: unknown): void {
  const then = thenOf(value);
  if (!then) return;
  try {
    then.call(value, undefined, () => undefined);
  } catch {
    // a thenable whose `then` throws has no rejection to observe
  }
}
