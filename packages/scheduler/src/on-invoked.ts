import type { CompiledCall, RegisteredTool } from "@obelisk/compiler";
import type { Awaitable } from "@obelisk/state";
import type { DispatchHost } from "./dispatch-host.js";
import { failed } from "./failed-ending.js";
import { errorValue, interpretResult } from "./interpret-result.js";
import type { InvokeOutcome } from "./invoke-tool.js";
import type { CallRun } from "./runner-types.js";

/** Turns a tool result (or a latent `_output`) into a pending result or a failure. */
export function completeValue(
  host: DispatchHost,
  index: number,
  call: CompiledCall,
  tool: RegisteredTool,
  raw: unknown,
): Awaitable<void> {
  let interpreted: ReturnType<typeof interpretResult>;
  try {
    interpreted = interpretResult(call, tool, raw, host.options.maxValueBytes);
  } catch {
    // A hostile value whose inspection throws (bug B5's family): not JSON.
    return host.end(index, failed("OUTPUT_NOT_JSON", "the tool returned a value that cannot be inspected"));
  }
  if (!interpreted.ok) return host.end(index, { status: "failed", wrote: [], error: interpreted.error });
  const alternative = call.outputPath === undefined ? undefined : interpreted.alternative;
  host.complete(index, { status: "succeeded", alternative, value: interpreted.value });
}

/** The alternative a thrown error is routed to (the last, SPEC §3), or undefined when the call has fewer than two. */
export function failureBranch(call: CompiledCall): number | undefined {
  const count = call.outputPath?.alternatives.length ?? 0;
  return count < 2 ? undefined : count - 1;
}

/** Handles how the attempts ended: result, error (routed to the failure branch with ≥ 2 alternatives) or abort. */
export function onInvoked(
  host: DispatchHost,
  index: number,
  run: CallRun,
  tool: RegisteredTool,
  outcome: InvokeOutcome,
): Awaitable<void> {
  const call = run.call;
  switch (outcome.kind) {
    case "returned":
      return completeValue(host, index, call, tool, outcome.value);
    case "invalid":
      return host.end(index, { status: "failed", wrote: [], error: outcome.error });
    case "threw": {
      const alternative = failureBranch(call);
      if (alternative === undefined)
        return host.end(index, { status: "failed", wrote: [], error: outcome.error });
      // concat appends an array's items: the error object goes in as one item, so the failure branch
      // of a concat call can be written at all (it always failed OUTPUT_WRITE_FAILED before)
      const value = errorValue(outcome.error);
      return host.complete(index, {
        status: "succeeded",
        alternative,
        value: call.outputMethod === "concat" ? [value] : value,
        error: outcome.error,
      });
    }
    case "cancelled":
      return host.end(index, { status: "cancelled", wrote: [], reason: host.abortReason });
  }
}
