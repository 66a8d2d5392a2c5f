import type { ToolContext } from "@obelisk/compiler";
import type { AroundTool } from "./around-tool.js";
import type { InvokeRequest } from "./invoke-request.js";
import { thenOf } from "./then-of.js";

/**
 * Runs the tool inside the host's `aroundTool`. The tool's own result is the attempt's: the wrapper's
 * return is awaited (its teardown) but its value is not used, so a wrapper cannot stand in for the tool.
 * `invoke()` runs the tool once (a second call throws); a wrapper that returns without calling it fails the
 * attempt, and an `invoke()` after that throws too (the attempt is judged: the tool must not run unrecorded);
 * a rejection of the tool's promise is always observed (never an unhandled rejection).
 */
export function runAround(
  around: AroundTool,
  request: InvokeRequest,
  ctx: ToolContext,
  attempt: number,
): unknown {
  let invoked = false;
  let judged = false;
  let value: unknown;
  const invoke = (): unknown => {
    if (invoked) throw new Error("aroundTool called invoke() twice in one attempt");
    if (judged)
      throw new Error(
        "aroundTool called invoke() after it had returned: the attempt already failed, and the tool does not run",
      );
    invoked = true;
    value = request.run(request.args, ctx);
    const then = thenOf(value);
    if (then) then.call(value, undefined, () => undefined);
    return value;
  };
  const info = {
    callId: request.callId,
    tool: request.toolName,
    runId: request.runId,
    threadId: request.threadId,
    attempt,
  };
  const returned = around(info, invoke);
  const done = (): unknown => {
    judged = true;
    if (!invoked) throw new Error("aroundTool returned without calling invoke(): the tool did not run");
    return value;
  };
  return thenOf(returned) ? Promise.resolve(returned).then(done) : done();
}
