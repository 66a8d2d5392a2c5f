import { asRunId, asThreadId, type Mutable, ObeliskError, type RunId } from "@obelisk/core";
import type { RunRecord } from "@obelisk/state";
import type { EngineRuntime } from "./engine-runtime.js";
import type { RunOptions, RunResult } from "./engine-types.js";
import { type ResumeChain, resumeChain } from "./resume-chain.js";
import { runNotFound } from "./run-not-found.js";
import { resumeRefusal } from "./run-not-resumable.js";
import { runPlan } from "./run-plan.js";

/**
 * Times a resume compiles again because the run's records changed while it waited for the thread (a run
 * still `running` when first read, which recorded calls until its process stopped): once is the rule.
 */
const MAX_ATTEMPTS = 3;

/** Thrown by the check under the lock when the chain read before it is stale: compile again with `chain`. */
class ChainMoved extends Error {
  constructor(readonly chain: ResumeChain) {
    super("the resumed run's records changed while the resume waited for its thread");
  }
}

/**
 * Re-runs a recorded run's plan with its input (satisfied calls skip); marks the runs it continues that are
 * still `running` or `interrupted` (crashed) `cancelled`. Calls without `_id` get the ids they had in the
 * original run (so `ctx.idempotencyKey` stays the same), also when the run resumed is itself a crashed one.
 * Under the thread's lock, before anything is recorded, the run is read again: one another resume continued
 * already, or that was given up, is RUN_NOT_RESUMABLE (nothing recorded, lock released), and the chain the
 * resume satisfies its calls from is the one the store holds then (decision 0070).
 */
export async function resumeRun(
  runtime: EngineRuntime,
  runId: string,
  options: RunOptions,
): Promise<RunResult> {
  const store = runtime.store;
  const id = asRunId(runId);
  const first = await store.getRun(id);
  if (first === undefined) throw runNotFound(runId);
  // a run given up never opens again: refused at once, without waiting for its thread
  const givenUp = await resumeRefusal(store, first, false);
  if (givenUp !== undefined) throw givenUp;
  let chain = await resumeChain(store, first);
  for (let attempt = 1; ; attempt++) {
    const record = chain.runs[0] as RunRecord;
    // the chain the run executes with: replaced by the one read under the lock before anything runs
    const resumed: Mutable<ResumeChain> = { ...chain };
    const compiledWith = chain;
    const accept = async (): Promise<void> => {
      const locked = await lockedChain(runtime, id, runId);
      if (!sameCompile(compiledWith, locked)) throw new ChainMoved(locked);
      Object.assign(resumed, locked);
    };
    try {
      // the run ends the runs of `resumed` still open itself, under the lock (endSupersededRuns)
      return await runPlan(
        runtime,
        record.plan,
        { ...options, threadId: record.threadId, input: record.input as object },
        runtime.hub([options.onEvent]),
        { resumed, accept },
      );
    } catch (error) {
      if (!(error instanceof ChainMoved)) throw error;
      if (attempt === MAX_ATTEMPTS) throw stillWritten(record);
      chain = error.chain;
    }
  }
}

/** The run's chain as the store holds it under the thread's lock; RUN_NOT_RESUMABLE when it may not be resumed. */
async function lockedChain(runtime: EngineRuntime, id: RunId, runId: string): Promise<ResumeChain> {
  const record = await runtime.store.getRun(id);
  if (record === undefined) throw runNotFound(runId);
  const refused = await resumeRefusal(runtime.store, record, true);
  if (refused !== undefined) throw refused;
  return resumeChain(runtime.store, record);
}

/**
 * True when a compile with `before` numbers and reads the plan as one with `now` would: the same plan (a
 * streamed run's grows while it runs) and the same call ids recorded by the chain (automatic ids skip the
 * thread's other ids).
 */
function sameCompile(before: ResumeChain, now: ResumeChain): boolean {
  const was = before.numbering?.ownCallIds;
  const is = now.numbering?.ownCallIds;
  const sameIds =
    was === undefined || is === undefined
      ? was === is
      : was.size === is.size && [...is].every((callId) => was.has(callId));
  const plans = [before.runs[0]?.plan, now.runs[0]?.plan];
  return sameIds && (plans[0] === plans[1] || JSON.stringify(plans[0]) === JSON.stringify(plans[1]));
}

/** THREAD_BUSY when the run's records changed at every attempt: another process still writes them. */
function stillWritten(record: RunRecord): ObeliskError {
  return new ObeliskError(
    "THREAD_BUSY",
    `run ${JSON.stringify(record.runId)} was still being written while resume waited for thread ${JSON.stringify(record.threadId)}`,
    {
      data: { threadId: asThreadId(record.threadId) },
      hint: "resume it once the process running it has stopped (runs.show(runId) shows it interrupted)",
    },
  );
}
