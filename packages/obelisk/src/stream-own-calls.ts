import { AsyncLocalStorage } from "node:async_hooks";
import type { AroundTool } from "@obelisk/scheduler";

/** The streams whose tool calls the current async work belongs to (nested: a tool that opens a stream). */
const insideStreams = new AsyncLocalStorage<readonly object[]>();

/** One stream's own tool calls, told apart from the host's code. */
export interface StreamOwnCalls {
  /** The engine's `aroundTool` (if any), wrapped so the tool's async work is known to be this stream's. */
  readonly aroundTool: AroundTool;
  /** True inside one of the stream's calls (also a run or stream that call started): its `close()` there would wait for itself. */
  isInside(): boolean;
}

/** Marks each tool attempt of a new stream, around the host's `aroundTool` when there is one. */
export function streamOwnCalls(host: AroundTool | undefined): StreamOwnCalls {
  const marker = {};
  return {
    // without a host wrapper nothing is returned: the attempt then takes the tool's own result at once, as
    // it does with no aroundTool (a returned promise would be awaited as the wrapper's teardown)
    aroundTool: (attempt, invoke) =>
      insideStreams.run([...(insideStreams.getStore() ?? []), marker], () => {
        if (host !== undefined) return host(attempt, invoke);
        invoke();
        return undefined;
      }),
    isInside: () => insideStreams.getStore()?.includes(marker) === true,
  };
}
