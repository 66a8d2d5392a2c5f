import type { JsonObject, JsonValue, WriteJournal } from "@obelisk/core";
import { applyOutputInPlace, formatReference, toJsonValue } from "@obelisk/core";
import type { CallCommit, StateWrite } from "../store-types.js";
import { type AssignedFacts, assignedFacts } from "./assign-facts.js";
import { type CommitFailure, failure, isCommitFailure } from "./commit-failure.js";
import { copyRecord, NotJson } from "./copy-record.js";
import { copyWrites, maxBytesOf } from "./copy-writes.js";
import { ModelOverlay } from "./model-overlay.js";
import { copyRoot } from "./root-copy.js";
import { settleBelow, valueAt } from "./settle-below.js";
import { beforeWrite, type SizeDelta, sizeDelta } from "./size-delta.js";
import type { SchemaPlan } from "./state-validator.js";
import { strippedRecord } from "./strip-record.js";
import { supersededBelow, type TombstonesBelow } from "./superseded-below.js";
import type { ThreadChange, ThreadModel, VariableEntry } from "./thread-model.js";
import { knownBytes, refreshed, variableFor, type Writer } from "./variable-entry.js";

const NONE: readonly never[] = Object.freeze([]);

/** The store's bounds of what a call record keeps (decision records 0029, 0034). */
export interface RecordBounds {
  /** `recordResultBytes`: the largest result a record keeps once nothing its call wrote is held. */
  readonly resultBytes: number;
  /** `recordParamsBytes`: the largest parameters a record keeps whole. */
  readonly paramsBytes: number;
  /** The store fills a record's call hash in later (`CallCommit.callHashOf`): the memory store. */
  readonly defersCallHash: boolean;
}

/**
 * Plans one call's commit against a thread model at `nowMs` (ISO text `date`): copy, apply in place,
 * validate, variables, log. The
 * model's working tree is changed in place and every change recorded in `journal` (empty on entry): roll
 * it back when the change is not persisted, clear it when it is. On failure the journal is already rolled
 * back and nothing is changed. While the thread has state tombstones, each write is checked, before it is
 * applied, for those below its path it supersedes (`tombstonesBelow` finds them).
 */
export function planCommit(
  model: ThreadModel,
  commit: CallCommit,
  nowMs: number,
  date: string,
  journal: WriteJournal,
  tombstonesBelow: TombstonesBelow,
  bounds: RecordBounds,
): ThreadChange | CommitFailure {
  const count = commit.writes.length;
  const writes: StateWrite[] = new Array(count);
  const sizes: number[] = new Array(count);
  const absent = copyWrites(model, commit.writes, writes, sizes, maxBytesOf(commit));
  if (typeof absent !== "number") return absent;
  const schemaPlan = model.validator?.plan(model.state, writes);
  try {
    // the writes in order, in place (core `applyOutputInPlace`), every change journaled
    // the first write after a read copies the root that read froze: here, by its keys (copyRoot), not by
    // the output engine's spread
    let state: JsonValue =
      count === 0 || Object.isExtensible(model.state) ? model.state : copyRoot(model.state);
    let cleared: string[] | undefined;
    const tombstoned = model.stateTombstones;
    // one write below variables: what it changes in their sizes, measured around it (not their values)
    const before = count === 1 && absent === 0 ? measuredBefore(model, writes[0] as StateWrite) : undefined;
    // one assign into an object variable: its size and count from the members it adds or replaces
    const only = writes[0] as StateWrite;
    const assigned =
      count === 1 && absent === 0 && (only.method === "assign" || only.method === "merge")
        ? assignedFacts(model.state, only, model.variables.get(only.reference))
        : undefined;
    for (let index = 0; index < count; index++) {
      const write = writes[index] as StateWrite;
      if (tombstoned) cleared = supersededBelow(tombstonesBelow(model, write), state, write, cleared);
      const applied = applyOutputInPlace(state, write.path, write.method, write.value, journal);
      if (!applied.ok) {
        journal.rollback();
        const { reference } = write;
        return failure("OUTPUT_WRITE_FAILED", `${reference}: ${applied.message}`, reference);
      }
      state = applied.value;
    }
    const delta =
      before === undefined
        ? undefined
        : sizeDelta(state, writes[0] as StateWrite, before, sizes[0] as number);
    const planned = planApplied(
      model,
      commit,
      nowMs,
      date,
      absent,
      writes,
      sizes,
      state as JsonObject,
      schemaPlan,
      bounds,
      delta,
      assigned,
    );
    if (!isCommitFailure(planned) && planned.record !== undefined && planned.outputs.length + count === 0) {
      // a call that writes nothing (a `satisfied` one whose targets hold its value) keeps no large result
      const stripped = strippedRecord(planned.record, bounds.resultBytes);
      if (stripped !== undefined) return { ...planned, record: stripped };
    }
    if (isCommitFailure(planned)) {
      journal.rollback();
      return planned;
    }
    return cleared === undefined ? planned : { ...planned, clearedTombstones: cleared };
  } catch (error) {
    journal.rollback();
    throw error;
  }
}

/** The rest of a commit once its writes are applied: schema, variables, log, output and record. */
function planApplied(
  model: ThreadModel,
  commit: CallCommit,
  nowMs: number,
  date: string,
  absent: number,
  writes: readonly StateWrite[],
  sizes: readonly number[],
  state: JsonObject,
  schemaPlan: SchemaPlan | undefined,
  bounds: RecordBounds,
  delta: SizeDelta | undefined,
  assigned: AssignedFacts | undefined,
): ThreadChange | CommitFailure {
  const failed = schemaPlan === undefined ? undefined : model.validator?.verify(schemaPlan, state);
  if (failed !== undefined) return failure("OUTPUT_SCHEMA_VIOLATION", failed.message, failed.reference);
  const { record } = commit;
  const writer: Writer = {
    call: { callId: record.callId, tool: record.tool },
    runId: record.runId,
    description: record.description,
    date,
    nowMs,
  };
  const count = writes.length;
  // the common commit, one write with no variable above or below its path (or none): no overlay
  const isolated =
    count === 0 || (count === 1 && (absent === 1 || model.trie.isolated((writes[0] as StateWrite).path)));
  const planned = isolated
    ? planIsolated(model, commit, writes, sizes, state, writer, absent === 1, assigned)
    : planOverlaid(model, commit, writes, sizes, state, writer, delta);
  if (isCommitFailure(planned)) return planned;
  const grown = grownPastLimit(model, planned.upserts, maxBytesOf(commit));
  if (grown !== undefined) return grown;
  const recordCopy = copyRecord(record, commit, writes, planned.output, bounds);
  if (recordCopy instanceof NotJson)
    return failure("OUTPUT_WRITE_FAILED", `call record: ${recordCopy.message}`);
  const { output } = planned;
  const newKeys = absent === count && distinctTopLevelKeys(writes);
  return {
    state,
    log: NONE,
    commitLog: { firstSeq: model.nextSeq, date, writes, bytes: planned.bytes, newKeys },
    upserts: planned.upserts,
    drops: planned.drops,
    evictions: NONE,
    clearedTombstones: NONE,
    outputs: output === undefined ? NONE : [{ callId: record.callId, value: output }],
    record: recordCopy,
    callHashOf: commit.callHashOf,
    nextSeq: planned.nextSeq,
  };
}

/**
 * The refusal of a commit that leaves a state variable larger than `maxBytes` and larger than it was: an
 * accumulating write (`push`, `concat`, `merge`, `assign`) or a write below it grows what the store keeps
 * past `maxValueBytes` (security review 35 M3). From the sizes the variables keep, not their values; a
 * variable already over the limit (a lower limit than it was written with) may shrink or stay.
 */
function grownPastLimit(
  model: ThreadModel,
  upserts: readonly VariableEntry[],
  maxBytes: number,
): CommitFailure | undefined {
  for (let index = 0; index < upserts.length; index++) {
    const { meta } = upserts[index] as VariableEntry;
    if (meta.bytes <= maxBytes || meta.scope !== "state") continue;
    const before = model.variables.get(meta.reference)?.meta.bytes ?? 0;
    if (meta.bytes <= before) continue;
    return failure(
      "OUTPUT_TOO_LARGE",
      `${meta.reference}: the value would be ${meta.bytes} bytes of JSON, more than ${maxBytes} (limits.maxValueBytes bounds each stored value): keep less in it, write elsewhere, or raise the limit`,
      meta.reference,
    );
  }
  return undefined;
}

/**
 * The value at a commit's one write before it is applied, when a variable is above its path (their sizes
 * then move by the write's {@link SizeDelta}); undefined when none is.
 */
function measuredBefore(model: ThreadModel, write: StateWrite) {
  if (model.trie.ancestors(write.path).length === 0) return undefined;
  const holder = (depth: number) => {
    const reference = model.trie.referenceAt(write.path.slice(0, depth));
    return reference === undefined ? undefined : model.variables.get(reference);
  };
  return beforeWrite(model.state, write, model.variables.get(write.reference), holder);
}

/** True when every write is of a one-segment path (a top-level key) and no two of them share it. */
function distinctTopLevelKeys(writes: readonly StateWrite[]): boolean {
  for (let index = 0; index < writes.length; index++) {
    const path = (writes[index] as StateWrite).path;
    if (path.length !== 1 || typeof path[0] !== "string") return false;
    for (let before = 0; before < index; before++)
      if ((writes[before] as StateWrite).path[0] === path[0]) return false;
  }
  return true;
}

/** The variables a commit changes, its stored output and what its writes take of the log. */
interface PlannedVariables {
  readonly upserts: readonly VariableEntry[];
  readonly drops: readonly VariableEntry[];
  /** The copy of the output stored under `†calls.<id>`, if any. */
  readonly output: JsonValue | undefined;
  /** Bytes of JSON of the written values. */
  readonly bytes: number;
  readonly nextSeq: number;
}

/**
 * The variables of a commit of at most one write, with no variable strictly above or below its path: what
 * {@link planOverlaid} plans for it (nothing to settle below or refresh above: the written variable, then
 * the stored output), without an overlay. `fresh`: the model's trie has nothing at the path either;
 * `assigned`: the facts of an assign into the variable's object, measured before it was applied.
 */
function planIsolated(
  model: ThreadModel,
  commit: CallCommit,
  writes: readonly StateWrite[],
  sizes: readonly number[],
  state: JsonObject,
  writer: Writer,
  fresh: boolean,
  assigned: AssignedFacts | undefined,
): PlannedVariables | CommitFailure {
  let seq = model.nextSeq;
  let bytes = 0;
  let written: VariableEntry | undefined;
  const write = writes[0];
  if (write !== undefined) {
    const touch = seq++;
    bytes = sizes[0] as number;
    // after a `set` the written value is what the path holds
    const here = write.method === "set" ? write.value : valueAt(state, write.path);
    if (here !== undefined) {
      // nothing at, above or below the path (`fresh`): no variable to look up
      const previous = fresh ? undefined : model.variables.get(write.reference);
      const known = knownBytes(previous, write, bytes, here) ?? assigned?.bytes;
      const items = assigned?.count;
      written = variableFor(
        previous,
        "state",
        write.reference,
        write.path,
        here,
        writer,
        touch,
        known,
        items,
        assigned?.preview,
      );
    }
  }
  if (commit.output === undefined) {
    const upserts = written === undefined ? NONE : [written];
    return { upserts, drops: NONE, output: undefined, bytes, nextSeq: seq };
  }
  const copy = toJsonValue(commit.output, { maxBytes: maxBytesOf(commit) });
  if (!copy.ok) return failure("OUTPUT_WRITE_FAILED", `output: ${copy.message}`);
  const { callId } = commit.record;
  const reference = formatReference("calls", [callId]);
  const previous = model.variables.get(reference);
  const entry = variableFor(previous, "calls", reference, [callId], copy.value, writer, seq++, copy.bytes);
  const upserts = written === undefined ? [entry] : [written, entry];
  return { upserts, drops: NONE, output: copy.value, bytes, nextSeq: seq };
}

/** The variables of any commit, its changes kept in a {@link ModelOverlay} as they are planned. */
function planOverlaid(
  model: ThreadModel,
  commit: CallCommit,
  writes: readonly StateWrite[],
  sizes: readonly number[],
  state: JsonObject,
  writer: Writer,
  delta: SizeDelta | undefined,
): PlannedVariables | CommitFailure {
  let seq = model.nextSeq;
  const overlay = new ModelOverlay(model);
  let bytes = 0;
  for (let index = 0; index < writes.length; index++) {
    const write = writes[index] as StateWrite;
    const touch = seq++;
    bytes += sizes[index] as number;
    const below = overlay.descendants(write.path);
    if (below.length > 0) settleBelow(overlay, write, below, state, writer, touch);
    // after a `set` the written value is what the path holds
    const here = write.method === "set" ? write.value : valueAt(state, write.path);
    if (here === undefined) continue;
    const previous = overlay.get(write.reference);
    const known = knownBytes(previous, write, sizes[index] as number, here) ?? delta?.written;
    overlay.put(variableFor(previous, "state", write.reference, write.path, here, writer, touch, known));
    const above = overlay.ancestors(write.path);
    for (let at = 0; at < above.length; at++) {
      const entry = above[at] as VariableEntry;
      const value = valueAt(state, entry.path);
      if (value !== undefined) overlay.put(refreshed(entry, value, writer, touch, delta));
    }
  }
  let output: JsonValue | undefined;
  // a satisfied call (a re-sent plan) sends an output only when the thread lost it or holds another
  // value under its id (the scheduler compares): one it still holds stays as it is (no new version)
  if (commit.output !== undefined) {
    const copy = toJsonValue(commit.output, { maxBytes: maxBytesOf(commit) });
    if (!copy.ok) return failure("OUTPUT_WRITE_FAILED", `output: ${copy.message}`);
    const { callId } = commit.record;
    const reference = formatReference("calls", [callId]);
    output = copy.value;
    const previous = overlay.get(reference);
    overlay.put(variableFor(previous, "calls", reference, [callId], output, writer, seq++, copy.bytes));
  }
  const { upserts, removed } = overlay.result();
  return { upserts, drops: removed, output, bytes, nextSeq: seq };
}
