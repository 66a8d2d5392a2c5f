import { type Mutable, ObeliskError } from "@obelisk/core";
import type { Awaitable, CommitResult } from "@obelisk/state";
import { after, isThenable } from "./awaitable.js";
import { buildCallRecord, type CallEnding, keepableRecord, type RecordContext } from "./call-record.js";
import { buildCompletion, type Completion } from "./completion-commit.js";
import type { EventHub } from "./event-hub.js";
import type { EventInput } from "./event-input.js";
import type { RunnerSettings } from "./runner-settings.js";
import type { CallRun, PendingResult } from "./runner-types.js";
import type { Reapplication } from "./state-writes.js";
import type { WorkingContext } from "./working-context.js";

/** What committing a call's record needs from its runner (shared by every call of the run). */
export interface CommitHost {
  readonly options: RunnerSettings;
  readonly context: WorkingContext;
  /** The run's clock (ms). */
  readonly now: () => number;
  /** The runner's one record context: its `endedAt` is set before each completion is built. */
  readonly recordContext: Mutable<RecordContext>;
  /** What decides a satisfied call's re-application (see `missingWrites`). */
  readonly reapplication: Reapplication;
  /** The run's observers (idle: no event is built). */
  readonly hub: EventHub;
  /** The run of the call at `index`. */
  runOf(index: number): CallRun;
  /** Emits an event of the run. */
  emit(event: EventInput): void;
  /** Reports a committed call and hands its ending to the decision core. */
  settleCall(index: number, ending: CallEnding, endedAt: number): void;
}

/**
 * The completion (commit and writes) of a call's pending result, built with the runner's one record
 * context, whose `endedAt` the caller sets: buildCallRecord reads it at once and keeps nothing of it.
 */
export function completionOf(host: CommitHost, index: number): Completion {
  const run = host.runOf(index);
  return buildCompletion(
    run,
    run.pending as PendingResult,
    host.context.stateAt,
    host.recordContext,
    host.reapplication,
  );
}

/** One serialized commit step of a completed call: its record and writes through the store, then applied. */
export function commitOne(host: CommitHost, index: number): Awaitable<void> {
  const endedAt = host.now();
  host.recordContext.endedAt = endedAt;
  const completion = completionOf(host, index);
  const result = host.options.store.commitCall(completion.commit);
  if (!isThenable(result)) return committed(host, index, completion, endedAt, result);
  return Promise.resolve(result).then((value) => committed(host, index, completion, endedAt, value));
}

/** After the store's answer: apply the writes to the working state and settle (or fail the call). */
export function committed(
  host: CommitHost,
  index: number,
  completion: Completion,
  endedAt: number,
  result: CommitResult,
): Awaitable<void> {
  if (!result.ok) {
    const { code, message } = result.error;
    return commitEnding(host, index, {
      status: "failed",
      wrote: [],
      error: { name: "ObeliskError", code, message },
    });
  }
  const { writes, ending } = completion;
  const failure = writes.length === 0 ? undefined : host.context.write(writes);
  if (failure !== undefined)
    throw new ObeliskError(
      "STORE_ERROR",
      `the store accepted a write the working state cannot apply: ${failure}`,
    );
  const run = host.runOf(index);
  const call = run.call;
  // dependents read the output here, also one a satisfied call did not store again (the thread holds it)
  if (call.outputPath === undefined && run.pending?.value !== undefined)
    host.context.setCallOutput(call.id, run.pending.value);
  if (!host.hub.idle) {
    for (const write of writes) {
      host.emit({
        type: "state-write",
        callId: call.id,
        tool: call.tool,
        reference: write.reference,
        method: write.method,
      });
    }
  }
  host.settleCall(index, ending, endedAt);
}

/** Commits the record of a call that ended without a result (no writes), then settles it. */
export function commitEnding(host: CommitHost, index: number, ending: CallEnding): Awaitable<void> {
  const run = host.runOf(index);
  run.ending = ending.status;
  const endedAt = host.now();
  const { maxValueBytes } = host.recordContext;
  const record = buildCallRecord(run, ending, {
    threadId: host.options.threadId,
    runId: host.options.runId,
    endedAt,
    maxValueBytes,
  });
  const store = host.options.store;
  return after(store.commitCall({ record, writes: [], maxValueBytes }), (result) => {
    if (result.ok) return host.settleCall(index, ending, endedAt);
    // Every call leaves a record (SPEC §8): one the store refused (a field it cannot keep) is kept cut.
    const cut = keepableRecord(record, result.error.message);
    return after(store.commitCall({ record: cut, writes: [], maxValueBytes }), () =>
      host.settleCall(index, ending, endedAt),
    );
  });
}
