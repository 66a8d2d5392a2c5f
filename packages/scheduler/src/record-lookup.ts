import type { RegisteredTool } from "@obelisk/compiler";
import { asThreadId } from "@obelisk/core";
import type { Awaitable, CallRecord } from "@obelisk/state";
import { isThenable } from "./awaitable.js";
import { confirmThenExecute } from "./confirm-call.js";
import type { DispatchHost } from "./dispatch-host.js";
import { reuse } from "./reuse-record.js";
import type { CallRun } from "./runner-types.js";

/**
 * After the store's lookup of the call's key: reuses the record found when it may satisfy the call (else
 * an earlier one of the key), or confirms and executes the call.
 */
export function afterLookup(
  host: DispatchHost,
  index: number,
  run: CallRun,
  tool: RegisteredTool,
  record: CallRecord | undefined,
): Awaitable<void> {
  if (record === undefined || !youngEnough(host, tool, record))
    return confirmThenExecute(host, index, run, tool);
  if (host.mayReuse(record, run.call) && host.claim(record)) return reuse(host, index, run, record);
  // the latest record of the key is a sibling's, or another call of this run took it: an earlier one
  // may be this call's (two identical calls of a re-sent plan are each satisfied by their own record)
  const { store, threadId } = host.options;
  const earlier = store.findCompletedCalls?.(asThreadId(threadId), run.hash as string, EARLIER_RECORDS);
  if (earlier === undefined) return confirmThenExecute(host, index, run, tool);
  if (!isThenable(earlier)) return pickEarlier(host, index, run, tool, earlier);
  return Promise.resolve(earlier).then((records) => pickEarlier(host, index, run, tool, records));
}

/**
 * True while a completed record may still satisfy a call of its tool: it ended less than `reuseForMs` ago
 * (by the run's clock). `0` never reuses; a record without an end time, or one that ended after now (the
 * clock was set back), is too old for a tool that sets a bound.
 */
function youngEnough(host: DispatchHost, tool: RegisteredTool, record: CallRecord): boolean {
  const bound = tool.reuseForMs;
  if (bound === Number.POSITIVE_INFINITY) return true;
  if (bound === 0) return false;
  const age =
    (host.options.now ?? Date.now)() -
    (record.endedAt === undefined ? Number.NaN : Date.parse(record.endedAt));
  return age >= 0 && age < bound;
}

/** How many completed records of one key are looked at for a call whose latest one is taken. */
const EARLIER_RECORDS = 16;

function pickEarlier(
  host: DispatchHost,
  index: number,
  run: CallRun,
  tool: RegisteredTool,
  records: readonly CallRecord[],
): Awaitable<void> {
  for (const record of records)
    if (youngEnough(host, tool, record) && host.mayReuse(record, run.call) && host.claim(record))
      return reuse(host, index, run, record);
  return confirmThenExecute(host, index, run, tool);
}
