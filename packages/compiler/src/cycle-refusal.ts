import type { Diagnostic, OutputTarget } from "@obelisk/core";
import type { CallEntry } from "./builder-types.js";
import { commitOrderSteps } from "./commit-order.js";
import { cycleHint, cycleText, type ReadBetween, readsByWriters } from "./cycle-text.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import type { OperandGroups } from "./operand-groups.js";
import type { WriterGroup } from "./plan-dag.js";
import { type ClosedCycle, SEARCH_BUDGET_SPENT } from "./streaming-order.js";
import { writerTable } from "./writer-table.js";

/** A streamed call refused by `StreamingOrder.check`, as `cycleRefusal` describes it. */
export interface RefusedCall {
  readonly id: string;
  readonly pointer: string;
  readonly alternatives: readonly (readonly OutputTarget[])[];
  /** The groups of other calls that read what it writes. */
  readonly feeds: ReadonlyMap<WriterGroup, unknown>;
  /** The builder's groups, holding the call's own operands (it is in no entry yet). */
  readonly groups: OperandGroups;
}

/**
 * Streaming: the diagnostic of a call refused because it would close a cycle (`CYCLE`, with the cycle's
 * path and hint), or because the stream's cycle searches spent their budget (`PLAN_LIMIT`). Error path only.
 */
export function cycleRefusal(
  cycle: ClosedCycle | typeof SEARCH_BUDGET_SPENT,
  call: RefusedCall,
  entries: ReadonlyMap<string, CallEntry>,
): Diagnostic {
  const { id, pointer, alternatives } = call;
  if (cycle === SEARCH_BUDGET_SPENT) {
    const message = `call "${id}" is not added: calls sent before it read what it writes, and this stream's checks that such a call closes no cycle have visited their limit of calls`;
    const hint =
      "send each call before the calls that read what it writes, or close this stream and send the whole plan at once (a plan compiled in one piece has no such limit)";
    return makeDiagnostic("PLAN_LIMIT", message, pointer, { callId: id, hint });
  }
  const { path, commitsAfter } = cycle;
  const text = cycleText(path);
  const steps = commitOrderSteps(path, entries, { id, alternatives, commitsAfter });
  const message = `adding call "${id}" would close a cycle: ${text}${steps === undefined ? "" : ` (${steps.explanation})`}`;
  return makeDiagnostic("CYCLE", message, pointer, {
    callId: id,
    hint: steps === undefined ? cycleHint(path, readsWith(call, entries)) : `${text}: ${steps.advice}`,
    related: path.slice(0, -1),
  });
}

/**
 * Reads between calls for a cycle's hint while `call` is being added (streaming): it is in no entry yet,
 * so its own reads come from the groups just found for it, and the reads it would feed from its `feeds`.
 */
function readsWith(call: RefusedCall, entries: ReadonlyMap<string, CallEntry>): ReadBetween {
  const { id, feeds, groups } = call;
  const others = readsByWriters(entries);
  const own = readsByWriters(new Map([[id, { writers: writerTable(groups.operands, groups.distinct) }]]));
  return (reader, writer) => {
    if (reader === id) return own(reader, writer);
    if (writer !== id) return others(reader, writer);
    for (const group of feeds.keys())
      if (group.readers.some((entry) => entry.id === reader)) return group.reference.text;
    return undefined;
  };
}
