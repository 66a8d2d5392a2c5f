import type { InvokeRequest } from "../invoke-tool.js";
import { DEFAULT_RETRY } from "../retry-delay.js";
import { systemTimers } from "../timers.js";

/** An invoke request for `run` with test defaults; `retries` collects the delay of every retry. */
export function invokeRequest(
  run: InvokeRequest["run"],
  overrides: Partial<InvokeRequest> = {},
): InvokeRequest & { retries: number[] } {
  const retries: number[] = [];
  return {
    run,
    args: {},
    callId: "c",
    runId: "r",
    threadId: "t",
    toolName: "tool",
    around: undefined,
    policy: DEFAULT_RETRY,
    timeoutMs: undefined,
    signal: new AbortController().signal,
    timers: systemTimers,
    now: () => Date.now(),
    random: () => 0.5,
    onAttempt: () => {},
    onRetry: (_attempt, delay) => retries.push(delay),
    retries,
    ...overrides,
  };
}
