import { assertNever, ObeliskError } from "@obelisk/core";

/**
 * Why a streaming run takes no more calls: its host closed it, its signal was aborted, `engine.close()`
 * stopped it, failFast ended it at a call's failure, or it closed itself after `idleTimeoutMs` without a call.
 */
export type StreamStop =
  | { readonly by: "close" }
  | { readonly by: "signal" }
  | { readonly by: "engine-close" }
  | { readonly by: "idle"; readonly idleTimeoutMs: number }
  | { readonly by: "failFast"; readonly callId: string };

/** The USAGE error `add` throws once the stream stopped, saying why and what to do instead. */
export function stoppedStreamError(stop: StreamStop, runId: string): ObeliskError {
  switch (stop.by) {
    case "close":
      return new ObeliskError("USAGE", "the streaming run is closed: no more calls can be added", {
        data: { runId, stoppedBy: stop.by },
        hint: "add every call before close(); for more calls open another stream on the thread (engine.open({ threadId })) or send them with engine.run",
      });
    case "signal":
      return new ObeliskError(
        "USAGE",
        "the streaming run was cancelled (its signal was aborted): no more calls can be added",
        { data: { runId, stoppedBy: stop.by } },
      );
    case "engine-close":
      return new ObeliskError(
        "USAGE",
        "the streaming run was stopped by engine.close(): no more calls can be added",
        {
          data: { runId, stoppedBy: stop.by },
          hint: `its record is interrupted: continue it with engine.resume(${JSON.stringify(runId)}) in an open engine`,
        },
      );
    case "idle":
      return new ObeliskError(
        "USAGE",
        `the streaming run closed itself after ${stop.idleTimeoutMs} ms without a call (its idleTimeoutMs): no more calls can be added`,
        {
          data: { runId, stoppedBy: stop.by, idleTimeoutMs: stop.idleTimeoutMs },
          hint: "close() answers the run's result, as if it had been called then (calls still running idleTimeoutMs after it were cancelled); open a new run to go on (calls that completed are satisfied when sent again), or give open a longer idleTimeoutMs",
        },
      );
    case "failFast":
      return new ObeliskError(
        "USAGE",
        `the streaming run was stopped by failFast: call "${stop.callId}" failed, so no more calls can be added`,
        {
          data: { runId, stoppedBy: stop.by, callId: stop.callId },
          hint: "close() answers the run's result (status failed, with the call's error); open a new run to go on (calls that completed are satisfied when sent again)",
        },
      );
    default:
      return assertNever(stop);
  }
}
