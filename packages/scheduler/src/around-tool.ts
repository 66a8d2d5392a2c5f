/** Which tool attempt an {@link AroundTool} hook wraps. */
export interface ToolAttemptInfo {
  readonly callId: string;
  readonly tool: string;
  readonly runId: string;
  readonly threadId: string;
  /** 1-based attempt number (each retry is wrapped again). */
  readonly attempt: number;
}

/**
 * Wraps each tool attempt: call `invoke()` inside it and return what it returns (a value or a promise).
 * For what must surround the tool's own code — an OpenTelemetry `context.with`, an AsyncLocalStorage
 * `run`, a log context — so that the tool's spans and logs belong to its call. A throw counts as the
 * tool's.
 */
export type AroundTool = (attempt: ToolAttemptInfo, invoke: () => unknown) => unknown;
