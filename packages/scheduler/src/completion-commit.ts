import { type Mutable, OUTPUT_METHODS } from "@obelisk/core";
import type { CallCommit, StateWrite } from "@obelisk/state";
import { markResolvedParams, resolvedRecordCallHash } from "./call-hash.js";
import { buildCallRecord, type CallEnding, type RecordContext, storedOrderRecord } from "./call-record.js";
import type { CallRun, PendingResult } from "./runner-types.js";
import {
  missingWrites,
  noteRebuilt,
  type Reapplication,
  type StateReader,
  writesFor,
} from "./state-writes.js";

/** What committing a completed call writes. */
export interface Completion {
  /** The call's ending (status, branch, result, wrote, error). */
  readonly ending: CallEnding;
  /** The commit for the store. */
  readonly commit: CallCommit;
  /** State writes (fan-out targets of the chosen alternative; only the lost ones for satisfied calls). */
  readonly writes: readonly StateWrite[];
}

const NOTHING_WRITTEN: readonly string[] = Object.freeze([]);

/**
 * The references written: each write's, then the stored output's (exact-size, frozen lists: the store
 * keeps a frozen list of strings as it is instead of copying it into the record).
 */
function wroteOf(writes: readonly StateWrite[], output: string | undefined): readonly string[] {
  const extra = output === undefined ? 0 : 1;
  if (writes.length + extra === 0) return NOTHING_WRITTEN;
  if (writes.length === 0) return Object.freeze([output as string]);
  if (writes.length === 1 && extra === 0) return Object.freeze([(writes[0] as StateWrite).reference]);
  const wrote: string[] = [];
  for (const write of writes) wrote.push(write.reference);
  if (output !== undefined) wrote.push(output);
  return Object.freeze(wrote);
}

/** Most references a kept- or replaced-targets reason names (then how many more). */
const KEPT_NAMED = 8;

/** The first {@link KEPT_NAMED} references, then how many more: `†state.a, †state.b and 3 more`. */
function namedTargets(references: readonly string[]): string {
  const named = references.slice(0, KEPT_NAMED).join(", ");
  return references.length > KEPT_NAMED ? `${named} and ${references.length - KEPT_NAMED} more` : named;
}

/**
 * The reason of a resumed satisfied call whose targets a later write changed (decision 0043): they are left
 * as that write made them, the unfinished calls read them so, and the user is told which.
 */
function keptReason(kept: readonly string[], runId: string | undefined): string {
  return `not restored: ${namedTargets(kept)} changed after this call completed in run ${String(runId)}; a resume leaves a later write as it is (only missing targets are restored)`;
}

/**
 * The reason of a re-sent satisfied call that put its recorded value back over another one (SPEC §7: its
 * outcome stands): a person's edit or a later call's write was replaced, and the user is told which.
 */
function replacedReason(replaced: readonly string[]): string {
  return `restored over a later value: ${namedTargets(replaced)} held another value, and a satisfied call's recorded outcome stands (it is written back); leave the call out of the plan to keep the later value, or send it with "_rerun": true to run it again`;
}

/**
 * Builds the commit of a completed call: writes of the chosen alternative, stored output, record.
 * `reapplication` decides which of a satisfied call's writes are re-applied (see `missingWrites`).
 */
export function buildCompletion(
  run: CallRun,
  pending: PendingResult,
  stateAt: StateReader,
  context: RecordContext,
  reapplication: Reapplication,
): Completion {
  const call = run.call;
  let writes =
    pending.alternative === undefined || pending.value === undefined
      ? []
      : writesFor(call, pending.alternative, pending.value);
  let kept: string[] | undefined;
  let replaced: string[] | undefined;
  if (pending.onlyMissing === true) {
    if (pending.completedIn !== undefined) kept = [];
    else replaced = [];
    writes = missingWrites(stateAt, writes, reapplication, kept, replaced);
  } else if (OUTPUT_METHODS[call.outputMethod].accumulating) noteRebuilt(stateAt, writes, reapplication);
  // a satisfied call re-stores its output only when the thread lost it, like its state targets
  const output = call.outputPath === undefined && pending.outputHeld !== true ? pending.value : undefined;
  const wrote = wroteOf(writes, output === undefined ? undefined : `†calls.${call.id}`);
  const count = call.outputPath?.alternatives.length ?? 0;
  // Built field by field (cheaper than conditional spreads on the hot path); a result is the common case.
  // The ending stays inside the runner (records and reports copy its fields by name).
  const value = pending.value;
  const ending: Mutable<CallEnding> =
    value === undefined
      ? { status: pending.status, wrote }
      : { status: pending.status, wrote, result: value };
  if (pending.alternative !== undefined && count >= 2) ending.branch = pending.alternative;
  if (pending.error !== undefined) ending.error = pending.error;
  if (pending.satisfiedBy !== undefined)
    (ending as Mutable<CallEnding & { satisfiedBy?: string }>).satisfiedBy = pending.satisfiedBy;
  if (pending.outputId !== undefined)
    (ending as Mutable<CallEnding & { outputId?: string }>).outputId = pending.outputId;
  if (kept !== undefined && kept.length > 0)
    (ending as Mutable<CallEnding & { reason?: string }>).reason = keptReason(kept, pending.completedIn);
  else if (replaced !== undefined && replaced.length > 0)
    (ending as Mutable<CallEnding & { reason?: string }>).reason = replacedReason(replaced);
  // the common record is built in the stored order and handed over: the memory store keeps it, no copy
  const common = storedOrderRecord(run, ending, context);
  const record = common ?? buildCallRecord(run, ending, context);
  const recordHandedOver = common !== undefined;
  const maxValueBytes = context.maxValueBytes;
  // a succeeded call dispatched without its hash (the thread held no record of its tool): the store fills
  // the record's hash in when it is first needed
  const callHashOf =
    run.hash === undefined && ending.status === "succeeded" ? resolvedRecordCallHash : undefined;
  // the resolved parameters are deeply frozen (as when dispatch hashes them): a large array of them read
  // by many calls is digested once, not once per record
  if (callHashOf !== undefined && run.params !== undefined && record.params === run.params)
    markResolvedParams(run.params);
  const commit: CallCommit =
    output === undefined
      ? { record, writes, maxValueBytes, callHashOf, recordHandedOver }
      : { record, writes, output, maxValueBytes, callHashOf, recordHandedOver };
  return { ending, commit, writes };
}
