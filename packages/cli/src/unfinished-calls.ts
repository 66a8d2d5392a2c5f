import { DEFAULT_LIMITS, isJsonObject, type JsonValue, type Limits, normalizePlan } from "@obelisk/core";
import type { CallRecord, RunRecord } from "obelisk";

/** A call of a run's plan that has no call record: in flight or not started (when the run ended: never finished). */
export interface UnfinishedCall {
  /** The call's id: its `_id`, or the automatic id (`<tool>$<n>`) it was numbered with. */
  readonly callId: string;
  /** Its `_tool`. */
  readonly tool: string;
}

/** A recorded plan is read whatever its size: the run was accepted under limits this command does not know. */
const UNBOUNDED = Object.fromEntries(
  Object.keys(DEFAULT_LIMITS).map((name) => [name, Number.MAX_SAFE_INTEGER]),
) as Partial<Limits>;

/** An automatic call id, `<tool>$<n>`. */
const AUTO_ID = /\$\d+$/;

interface PlannedCall extends UnfinishedCall {
  /** True when the call has no `_id` (its id was numbered from the run's `firstAutoIdNumber`). */
  readonly auto: boolean;
}

/** The calls of the run's recorded plan (a streamed run's: the calls appended so far), with their ids. */
function plannedCalls(run: RunRecord): PlannedCall[] {
  const document = normalizePlan(run.plan, { limits: UNBOUNDED }).document;
  const planned: PlannedCall[] = [];
  let next = run.firstAutoIdNumber ?? 1;
  for (const source of document?.calls ?? []) {
    const value = source.value as JsonValue;
    if (!isJsonObject(value)) continue;
    const tool = typeof value._tool === "string" ? value._tool : undefined;
    if (typeof value._id === "string") planned.push({ callId: value._id, tool: tool ?? "?", auto: false });
    else if (tool !== undefined) planned.push({ callId: `${tool}$${next++}`, tool, auto: true });
  }
  return planned;
}

/**
 * The calls of a run's plan that have no call record, in plan order: while the run is `running`, the calls
 * in flight and those not started. A call without `_id` is matched by the automatic id numbered from the
 * run's `firstAutoIdNumber`; should the engine have skipped a number (an id the thread's stored outputs
 * held), a record of the same tool with an automatic id no plan call names counts for it: the number of
 * unfinished calls stays right, though the automatic id listed may then be off by the numbers skipped.
 */
export function unfinishedCalls(run: RunRecord, records: readonly CallRecord[]): UnfinishedCall[] {
  const planned = plannedCalls(run);
  const recorded = new Set<string>(records.map((record) => record.callId));
  const named = new Set(planned.map((call) => call.callId));
  const spare = new Map<string, number>();
  for (const record of records)
    if (!named.has(record.callId) && AUTO_ID.test(record.callId))
      spare.set(record.tool, (spare.get(record.tool) ?? 0) + 1);
  const unfinished: UnfinishedCall[] = [];
  for (const call of planned) {
    if (recorded.has(call.callId)) continue;
    const left = call.auto ? (spare.get(call.tool) ?? 0) : 0;
    if (left > 0) spare.set(call.tool, left - 1);
    else unfinished.push({ callId: call.callId, tool: call.tool });
  }
  return unfinished;
}
