import { handlerStack } from "./handler-stack.js";

/** How an error escaped: thrown where nothing catches it, or a rejected promise nothing handles. */
export type UncaughtKind = "uncaught exception" | "unhandled rejection";

type UncaughtHandler = (error: unknown, kind: UncaughtKind) => void;

/**
 * The handlers of uncaught exceptions and unhandled promise rejections, innermost last. A tools module runs
 * in the CLI's process: an exception thrown in its timer callback, or a promise it rejects and nobody
 * awaits, would reach Node's default handler, which prints a stack trace and ends the process at once (a
 * run in flight then stays `running`). Instead the innermost handler is told: a run cancels itself and
 * reports the run; outside a run the bin reports the error and exits 1.
 */
const handlers = handlerStack<UncaughtHandler>(
  () => {
    process.on("uncaughtException", onException);
    process.on("unhandledRejection", onRejection);
  },
  () => {
    process.off("uncaughtException", onException);
    process.off("unhandledRejection", onRejection);
  },
);

function onException(error: unknown): void {
  handlers.innermost()?.(error, "uncaught exception");
}

function onRejection(error: unknown): void {
  handlers.innermost()?.(error, "unhandled rejection");
}

/**
 * Calls `handler` for each uncaught exception or unhandled rejection while it is the innermost handler
 * registered. Returns the function that removes it.
 */
export function onUncaught(handler: UncaughtHandler): () => void {
  return handlers.add(handler);
}
