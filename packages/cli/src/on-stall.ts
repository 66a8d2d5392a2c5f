/**
 * The handlers of the waits in progress, innermost last. When the event loop empties while the CLI still
 * waits, nothing is left that could settle the promise it awaits (no timer, I/O, child process or worker):
 * a tool's run, or a tools module's top-level await, that waits for something that never comes. Node would
 * then exit with code 13 and say nothing. Each time the loop empties, the innermost handler is told (once):
 * it ends its wait (cancel the run, refuse the tools module), and the command goes on to report it.
 */
const handlers: (() => void)[] = [];

function onBeforeExit(): void {
  const handler = handlers.pop();
  if (handlers.length === 0) process.off("beforeExit", onBeforeExit);
  handler?.();
}

/**
 * Calls `handler` if the event loop empties (Node's `beforeExit`) while it is registered and no handler
 * registered after it is left. Returns the function that removes it (call it when the wait ends).
 */
export function onStall(handler: () => void): () => void {
  if (handlers.length === 0) process.on("beforeExit", onBeforeExit);
  handlers.push(handler);
  return () => {
    const index = handlers.lastIndexOf(handler);
    if (index < 0) return;
    handlers.splice(index, 1);
    if (handlers.length === 0) process.off("beforeExit", onBeforeExit);
  };
}

/** A promise that rejects with `error()` if the event loop empties before `promise` settles (see {@link onStall}). */
export async function unlessStalled<T>(promise: Promise<T>, error: () => unknown): Promise<T> {
  let remove = (): void => {};
  const stalled = new Promise<never>((_, reject) => {
    remove = onStall(() => reject(error()));
  });
  try {
    return await Promise.race([promise, stalled]);
  } finally {
    remove();
  }
}
