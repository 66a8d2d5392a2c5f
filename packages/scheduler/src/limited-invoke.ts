import type { CompiledCall, RegisteredTool, RetryPolicy } from "@obelisk/compiler";
import type { Awaitable } from "@obelisk/state";
import { CallInvocation, type InvocationHost } from "./call-invocation.js";
import type { CallLimiter } from "./call-limiter.js";
import { type InvokeOutcome, invokeToolThen } from "./invoke-tool.js";
import { failureBranch } from "./on-invoked.js";
import type { RunnerSettings } from "./runner-settings.js";
import type { CallRun } from "./runner-types.js";

/** What invoking a call under the run's limits needs from its runner. */
export interface LimitedInvokeHost extends InvocationHost {
  readonly options: RunnerSettings;
  /** The run's concurrency limits. */
  readonly limiter: CallLimiter;
  /** failFast: a certain failure is known; calls granted a slot from now on end `cancelled` unstarted. */
  failingFast: boolean;
  /** Why the run was (or is being) aborted. */
  abortReason: string;
  /** The effective retry policy of a call. */
  policyOf(call: CompiledCall, tool: RegisteredTool): RetryPolicy;
}

/**
 * Invokes the tool under the limits and settles its outcome; fast path (no queue) when nothing is
 * limited. Under a limit the outcome is settled inside the slot: a freed slot would otherwise go to a
 * call already waiting before this call's dependents (perhaps on the critical path) were even queued.
 * The request settles through the host's `invoked` (no closure per call).
 */
export function invokeLimited(
  host: LimitedInvokeHost,
  index: number,
  run: CallRun,
  tool: RegisteredTool,
): Awaitable<void> {
  const call = run.call;
  const limiter = host.limiter;
  const unlimited = limiter.unlimited(tool.name);
  // failFast under a limit: the outcome is judged before the slot is given back (see failFastEarly)
  const early = !unlimited && host.options.failFast === true;
  const request = new CallInvocation(host, run, tool, host.policyOf(call, tool), index, early);
  if (unlimited) return invokeToolThen(request);
  let started = false;
  const task = (): Awaitable<void> => {
    started = true;
    if (host.failingFast) return request.settle({ kind: "cancelled", attempts: run.attempts });
    return invokeToolThen(request);
  };
  // A streamed call's remaining path is unknown until close: it ranks as a call nothing follows (its cost).
  const priority = host.options.criticalPaths?.get(call.id) ?? tool.cost;
  return limiter.run(tool.name, priority, host.signal, task).catch((error: unknown) => {
    // Refused before it started (the run was aborted while it waited): the call is cancelled. A failure
    // while settling is the runner's own and fatal, as on the fast path.
    if (started) throw error;
    return request.settle({ kind: "cancelled", attempts: run.attempts });
  });
}

/**
 * failFast with limited slots: a certain failure (an uninspectable result, or a thrown error with no
 * failure branch) is marked before the call gives its slot back, so a queued call granted that slot ends
 * `cancelled` without starting; the run itself is aborted when the failure settles.
 */
export function failFastEarly(
  host: LimitedInvokeHost,
  call: CompiledCall,
  outcome: InvokeOutcome,
): InvokeOutcome {
  const fails = outcome.kind === "invalid" || (outcome.kind === "threw" && failureBranch(call) === undefined);
  if (!host.failingFast && fails) {
    host.failingFast = true;
    host.abortReason = `failFast: ${call.id} failed`;
  }
  return outcome;
}
