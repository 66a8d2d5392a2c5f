/**
 * Handlers of one process event, innermost last: only the innermost registered is told. `attach` runs
 * when the first handler is added (the process listener goes on), `detach` when the last is removed.
 */
export interface HandlerStack<H> {
  /** The innermost handler registered, if any. */
  innermost(): H | undefined;
  /** Adds `handler` as the innermost; returns the function that removes it. */
  add(handler: H): () => void;
}

/** A {@link HandlerStack} whose process listener is attached while it holds a handler. */
export function handlerStack<H>(attach: () => void, detach: () => void): HandlerStack<H> {
  const handlers: H[] = [];
  return {
    innermost: () => handlers.at(-1),
    add(handler) {
      if (handlers.length === 0) attach();
      handlers.push(handler);
      return () => {
        const index = handlers.lastIndexOf(handler);
        if (index < 0) return;
        handlers.splice(index, 1);
        if (handlers.length === 0) detach();
      };
    },
  };
}
