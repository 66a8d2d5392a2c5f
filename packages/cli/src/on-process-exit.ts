import { handlerStack } from "./handler-stack.js";

/**
 * The handlers of the process's `exit`, innermost last. A tools module runs in the CLI's process, so its
 * `process.exit` — while it loads, from a tool during the run, or from a timer it left running — ends the
 * command where it stands, with the module's exit code (0 for `process.exit()`, which would tell a script
 * the command succeeded). Node still emits `exit`, synchronously: the innermost handler says what was cut
 * short and sets the exit code. Outermost the bin's (a tools module's exit outside its load and the run),
 * then the tools module's load (`load-tools.ts`), then the run in flight (`run-cancellation.ts`).
 */
const handlers = handlerStack<(code: number) => void>(
  () => process.on("exit", onExit),
  () => process.off("exit", onExit),
);

function onExit(code: number): void {
  handlers.innermost()?.(code);
}

/**
 * Calls `handler` when the process exits while it is the innermost handler registered. Returns the function
 * that removes it.
 */
export function onProcessExit(handler: (code: number) => void): () => void {
  return handlers.add(handler);
}
