/**
 * The handlers of uncaught exceptions and unhandled promise rejections, innermost last. A tools module runs
 * in the CLI's process: an exception thrown in its timer callback, or a promise it rejects and nobody
 * awaits, would reach Node's default handler, which prints a stack trace and ends the process at once (a
 * run in flight then stays `running`). Instead the innermost handler is told: a run cancels itself and
 * reports the run; outside a run the bin reports the error and exits 1.
 */
const handlers: ((error: unknown, kind: UncaughtKind) => void)[] = [];

/** How an error escaped: thrown where nothing catches it, or a rejected promise nothing handles. */
export type UncaughtKind = "uncaught exception" | "unhandled rejection";

const onException = (error: unknown): void => handlers.at(-1)?.(error, "uncaught exception");
const onRejection = (error: unknown): void => handlers.at(-1)?.(error, "unhandled rejection");

/**
 * Calls `handler` for each uncaught exception or unhandled rejection while it is the innermost handler
 * registered. Returns the function that removes it.
 */
export function onUncaught(handler: (error: unknown, kind: UncaughtKind) => void): () => void {
  if (handlers.length === 0) {
    process.on("uncaughtException", onException);
    process.on("unhandledRejection", onRejection);
  }
  handlers.push(handler);
  return () => {
    const index = handlers.lastIndexOf(handler);
    if (index < 0) return;
    handlers.splice(index, 1);
    if (handlers.length > 0) return;
    process.off("uncaughtException", onException);
    process.off("unhandledRejection", onRejection);
  };
}
