import { type EventHub, executePlan, holdRunEnd } from "@obelisk/scheduler";
import type { RunAcceptor } from "./accepting-run.js";
import type { RunLease } from "./active-runs.js";
import { busyDuringRun } from "./busy-during-run.js";
import { lockWaitError } from "./closed-while-waiting.js";
import { endSupersededRuns } from "./end-superseded-runs.js";
import type { EngineRuntime } from "./engine-runtime.js";
import type { RunOptions, RunResult } from "./engine-types.js";
import type { FrozenPlan } from "./frozen-plan.js";
import { releaseAfter } from "./lock-release.js";
import { endingOptions, endingStatus, failedRunOptions, recordRun, requestTime } from "./record-run.js";
import { runnerRerun } from "./rerun-option.js";
import type { ResumeChain } from "./resume-chain.js";
import { asThrownError } from "./thrown-message.js";
import { toRunResult } from "./to-run-result.js";

/** What a run does beyond `engine.run`'s: resume recorded runs, or ask before it starts. */
export interface RunSteps {
  /** The automatic ids are numbered as in the runs being resumed, whose records satisfy only their own calls. */
  readonly resumed?: ResumeChain;
  /** Asked once the plan compiled valid, before anything is recorded (`run_plan`: warnings, approval). */
  readonly accept?: RunAcceptor;
}

/**
 * One tick: takes the thread lock, validates, records the run (plan and input, so `resume` works),
 * executes, finishes the run record, applies retention after the run, releases the lock and only then lets
 * `run-end` out.
 * The run holds a lease on the engine until it has ended, so `engine.close()` cancels it and waits for its
 * record instead of closing the store under it.
 */
export async function runPlan(
  runtime: EngineRuntime,
  plan: unknown,
  options: RunOptions,
  hub: EventHub,
  steps: RunSteps = {},
): Promise<RunResult> {
  // read now, before any await: later changes to the caller's objects change nothing (decision 0008)
  const frozen = runtime.freeze(plan);
  const requestedAt = requestTime(runtime.now);
  const lease = runtime.active.lease(options.signal);
  try {
    return await leasedRun(runtime, frozen, options, hub, lease, steps, requestedAt);
  } catch (error) {
    throw asThrownError(lockWaitError(error, lease, "run"));
  } finally {
    lease.release();
  }
}

async function leasedRun(
  runtime: EngineRuntime,
  plan: FrozenPlan,
  options: RunOptions,
  hub: EventHub,
  lease: RunLease,
  { resumed, accept }: RunSteps,
  requestedAt: number | undefined,
): Promise<RunResult> {
  const signal = lease.signal;
  const streamed = resumed?.runs[0]?.streamed === true;
  const prepared = await runtime.prepare(plan, options, {
    ...(resumed?.numbering === undefined ? {} : { resumed: resumed.numbering }),
    ...(accept === undefined ? {} : { accept }),
    signal,
    streamed,
  });
  const { threadId, runId, compiled, lock } = prepared;
  const engine = runtime.options;
  // run-end waits for the run's record to be finished and the thread released: an observer reading the
  // record at run-end sees it ended, and one starting the thread's next run from it does not get THREAD_BUSY
  const held = holdRunEnd(hub);
  let failure: { readonly error: unknown } | undefined;
  try {
    await recordRun(runtime.store, {
      runId,
      threadId,
      planHash: compiled.planHash,
      plan: runtime.storedPlan(compiled, plan.value),
      input: prepared.input.given,
      ...(prepared.firstAutoIdNumber === undefined ? {} : { firstAutoIdNumber: prepared.firstAutoIdNumber }),
      ...(resumed === undefined ? {} : { resumeOf: resumed.resumeOf }),
      ...(resumed?.root === undefined ? {} : { resumeRoot: resumed.root }),
      ...(streamed ? { streamed } : {}),
      status: "running",
      startedAt: runtime.iso(),
    });
    let execution: Awaited<ReturnType<typeof executePlan>>;
    try {
      execution = await executePlan(compiled, {
        registry: runtime.registry,
        store: runtime.store,
        threadId,
        runId,
        planHash: compiled.planHash,
        input: prepared.input.input,
        state: prepared.state,
        ...(prepared.extraKinds === undefined ? {} : { extraKinds: prepared.extraKinds }),
        limiter: runtime.limiter,
        failFast: options.failFast ?? engine.failFast ?? false,
        ...runnerRerun(options.rerun),
        ...(engine.confirm === undefined ? {} : { confirm: engine.confirm }),
        ...(engine.aroundTool === undefined ? {} : { aroundTool: engine.aroundTool }),
        signal,
        ...(engine.timers === undefined ? {} : { timers: engine.timers }),
        now: runtime.now,
        ...(requestedAt === undefined ? {} : { requestedAt }),
        ...(engine.random === undefined ? {} : { random: engine.random }),
        ...(engine.limits?.maxValueBytes === undefined ? {} : { maxValueBytes: engine.limits.maxValueBytes }),
        events: held.events,
        ...(resumed === undefined
          ? {}
          : {
              resumeOf: resumed.resumeOf,
              resumes: resumed.runIds,
              resumedRecords: resumed.records,
              resumedSettled: resumed.settled,
            }),
      });
    } catch (error) {
      await runtime.store.finishRun(runId, "failed", runtime.endedAt(), undefined, failedRunOptions(error));
      throw busyDuringRun(error, runId);
    }
    const status = endingStatus(execution.status, lease);
    await runtime.store.finishRun(runId, status, runtime.endedAt(), undefined, endingOptions(status));
    const finished = { runId, threadId, planHash: compiled.planHash, status, resumed };
    await endSupersededRuns(runtime, finished, held.events);
    const state = await runtime.afterRun(threadId);
    return toRunResult(runId, threadId, compiled.planHash, execution, state);
  } catch (error) {
    failure = { error };
    throw error;
  } finally {
    try {
      // the run's own error is what is thrown: a release that fails too is a warning (decision 0092)
      if (failure === undefined) await lock.release();
      else await releaseAfter(lock, failure.error);
    } finally {
      held.release();
    }
  }
}
