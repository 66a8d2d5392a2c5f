import { isDeepStrictEqual } from "node:util";
import { asThreadId, deepFreeze } from "@obelisk/core";
import type { Awaitable, CallRecord, StateStore } from "@obelisk/state";
import { after } from "./awaitable.js";
import type { DispatchHost } from "./dispatch-host.js";
import { completedBefore } from "./own-record-match.js";
import type { CallRun } from "./runner-types.js";

/** What a store answers for a stored output. */
type FoundOutput = Awaited<ReturnType<StateStore["getCallOutput"]>>;

/**
 * Reuses a completed record: the call is `satisfied`, its result re-applied where its targets lost it. A
 * stored output (`†calls.<id>`) the thread still holds is not stored again (nor its metadata touched); one
 * another run stored under the same id is replaced, as a satisfied call's lost targets are. A call with an
 * automatic id satisfied by another call's record (the unnamed call of a re-sent plan, numbered anew) whose
 * output the thread still holds under that call's id stores no copy under its own: its value stands at
 * `†calls.<record's id>` (`outputId`, decision 0102).
 */
export function reuse(host: DispatchHost, index: number, run: CallRun, record: CallRecord): Awaitable<void> {
  if (run.call.outputPath !== undefined || record.result === undefined)
    return satisfied(host, index, run, record, false);
  const { store, threadId } = host.options;
  const thread = asThreadId(threadId);
  const result = record.result;
  const holds = (found: FoundOutput): boolean =>
    found !== undefined && "value" in found && isDeepStrictEqual(found.value, result);
  const own = (): Awaitable<void> =>
    after(store.getCallOutput(thread, run.call.id), (found) =>
      satisfied(host, index, run, record, holds(found)),
    );
  // a given `_id` is a name the plan chose (later plans read †calls.<_id>): its output is stored under it
  if (run.call.raw._id !== undefined || record.callId === run.call.id) return own();
  return after(store.getCallOutput(thread, record.callId), (found) =>
    holds(found) ? satisfied(host, index, run, record, true, record.callId) : own(),
  );
}

function satisfied(
  host: DispatchHost,
  index: number,
  run: CallRun,
  record: CallRecord,
  outputHeld: boolean,
  outputId?: string,
): void {
  const alternative = run.call.outputPath === undefined ? undefined : (record.branch ?? 0);
  const completedIn = completedInChain(host, run);
  host.complete(index, {
    status: "satisfied",
    satisfiedBy: record.runId,
    alternative,
    value: record.result === undefined ? undefined : deepFreeze(record.result),
    onlyMissing: true,
    ...(outputHeld ? { outputHeld } : {}),
    ...(outputId === undefined ? {} : { outputId }),
    ...(record.error === undefined ? {} : { error: record.error }),
    ...(completedIn === undefined ? {} : { completedIn }),
  });
}

/**
 * On resume, the run of the chain in which this call had completed (`succeeded`, or `satisfied` there) with
 * the key it has now: its write belongs to that run's time, so a target a later write changed is not
 * reverted (decision 0043). Undefined outside a resume, or for a call the chain had not completed (one
 * satisfied now by another run's record is as if it ran now: its targets are restored as on a re-send).
 */
function completedInChain(host: DispatchHost, run: CallRun): string | undefined {
  const settled = host.options.resumedSettled?.get(run.call.id);
  const params = run.shownParams ?? run.params;
  if (settled === undefined || run.hash === undefined || params === undefined) return undefined;
  return completedBefore(settled, run.call, run.hash, params) ? settled.runId : undefined;
}
