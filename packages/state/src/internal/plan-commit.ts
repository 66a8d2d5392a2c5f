import type { JsonObject, JsonValue, Path } from "@obelisk/core";
import {
  applyOutputInPlace,
  FORBIDDEN_SEGMENTS,
  formatReference,
  getAtPath,
  isoTime,
  toJsonValue,
  WriteJournal,
} from "@obelisk/core";
import type {
  CallCommit,
  CallRecord,
  CommitResult,
  RecordedError,
  StateWrite,
  VariableMeta,
  WriteLogEntry,
} from "../store-types.js";
import { copyJson } from "./copy-json.js";
import { describeValue, describeValueInto } from "./describe-value.js";
import { ModelOverlay } from "./model-overlay.js";
import type { SchemaPlan } from "./state-validator.js";
import type { ThreadChange, ThreadModel, VariableEntry } from "./thread-model.js";

type CommitFailure = Extract<CommitResult, { ok: false }>;
/**
 * A planned commit: the change to persist (already applied to the model's working tree; `undo` reverts
 * the tree when the change is not persisted), or the reason nothing is written (nothing changed).
 */
export type PlannedCommit =
  | { readonly ok: true; readonly change: ThreadChange; readonly undo: () => void }
  | CommitFailure;

/** A write whose value is a frozen copy, with the copy's JSON size. */
interface CopiedWrite {
  readonly write: StateWrite;
  readonly bytes: number;
}

const failure = (
  code: CommitFailure["error"]["code"],
  message: string,
  reference?: string,
): CommitFailure => ({
  ok: false,
  error: reference === undefined ? { code, message } : { code, message, reference },
});

interface Writer {
  readonly callId: string;
  readonly tool: string;
  readonly runId: string;
  readonly description: string | undefined;
  readonly date: string;
  readonly nowMs: number;
}

/** Builds (or refreshes) a variable entry for the value now at `path`. */
export function variableFor(
  previous: VariableEntry | undefined,
  scope: VariableMeta["scope"],
  reference: string,
  path: Path,
  value: JsonValue,
  writer: Writer,
  touch: number,
  bytes?: number,
): VariableEntry {
  // Built field by field (no spreads): this runs for every write of every commit.
  const meta = describeValueInto({ reference, scope }, value, bytes) as {
    -readonly [K in keyof VariableMeta]: VariableMeta[K];
  };
  if (writer.description !== undefined) meta.description = writer.description;
  meta.writer = { callId: writer.callId, tool: writer.tool };
  meta.runId = writer.runId;
  meta.createdAt = previous?.meta.createdAt ?? writer.date;
  meta.updatedAt = writer.date;
  meta.version = (previous?.meta.version ?? 0) + 1;
  return { meta, path, touch, updatedMs: writer.nowMs };
}

/** Copies the written values (frozen, with their JSON size); fails on the first value that is not JSON. */
function copyWrites(writes: readonly StateWrite[]): { ok: true; writes: CopiedWrite[] } | CommitFailure {
  const copies: CopiedWrite[] = [];
  for (const write of writes) {
    const reference = formatReference("state", write.path);
    if (
      write.path.length === 0 ||
      write.path.some((s) => typeof s === "string" && FORBIDDEN_SEGMENTS.has(s))
    ) {
      return failure("OUTPUT_WRITE_FAILED", `cannot write to ${reference}`, reference);
    }
    const copy = toJsonValue(write.value);
    if (!copy.ok) return failure("OUTPUT_WRITE_FAILED", `${reference}: ${copy.message}`, reference);
    const path = Object.freeze([...write.path]);
    copies.push({ write: { path, method: write.method, value: copy.value, reference }, bytes: copy.bytes });
  }
  return { ok: true, writes: copies };
}

/**
 * Applies the writes in order to the thread's working tree, in place (core `applyOutputInPlace`), journaling
 * every change; on the first impossible write everything is rolled back. Returns the new root.
 */
function applyWrites(
  state: JsonObject,
  writes: readonly CopiedWrite[],
  journal: WriteJournal,
): { ok: true; state: JsonObject } | CommitFailure {
  let current: JsonValue = state;
  for (const { write } of writes) {
    const applied = applyOutputInPlace(current, write.path, write.method, write.value, journal);
    if (!applied.ok) {
      journal.rollback();
      const { reference } = write;
      return failure("OUTPUT_WRITE_FAILED", `${reference}: ${applied.message}`, reference);
    }
    current = applied.value;
  }
  return { ok: true, state: current as JsonObject };
}

/**
 * Plans one call's commit against a thread model: copy, apply in place, validate, variables, log. The
 * model's working tree is changed in place; the returned `undo` restores it exactly (call it when the change
 * is not persisted). On failure nothing is changed.
 */
export function planCommit(model: ThreadModel, commit: CallCommit, nowMs: number): PlannedCommit {
  const copied = copyWrites(commit.writes);
  if (!copied.ok) return copied;
  const schemaPlan = model.validator?.plan(
    model.state,
    copied.writes.map((c) => c.write),
  );
  const journal = new WriteJournal();
  const applied = applyWrites(model.state, copied.writes, journal);
  if (!applied.ok) return applied;
  try {
    const planned = planApplied(model, commit, nowMs, copied.writes, applied.state, schemaPlan);
    if (!planned.ok) {
      journal.rollback();
      return planned;
    }
    return { ok: true, change: planned.change, undo: () => journal.rollback() };
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
  copies: readonly CopiedWrite[],
  state: JsonObject,
  schemaPlan: SchemaPlan | undefined,
): { readonly ok: true; readonly change: ThreadChange } | CommitFailure {
  const failed = schemaPlan === undefined ? undefined : model.validator?.verify(schemaPlan, state);
  if (failed !== undefined) return failure("OUTPUT_SCHEMA_VIOLATION", failed.message, failed.reference);
  const { record } = commit;
  const writer: Writer = {
    callId: record.callId,
    tool: record.tool,
    runId: record.runId,
    description: record.description,
    date: isoTime(nowMs),
    nowMs,
  };
  let seq = model.nextSeq;
  const overlay = new ModelOverlay(model);
  const log: WriteLogEntry[] = [];
  for (const { write, bytes } of copies) {
    const touch = seq++;
    log.push({
      seq: touch,
      runId: record.runId,
      call: { id: record.callId, tool: record.tool },
      date: writer.date,
      write,
    });
    for (const below of overlay.descendants(write.path)) overlay.remove(below.meta.reference);
    const here = getAtPath(state, write.path);
    if (!here.found) continue;
    const previous = overlay.get(write.reference);
    const known = knownBytes(previous, write, bytes, here.value);
    overlay.put(
      variableFor(previous, "state", write.reference, write.path, here.value, writer, touch, known),
    );
    for (const above of overlay.ancestors(write.path)) {
      const value = getAtPath(state, above.path);
      if (value.found) overlay.put(refreshed(above, value.value, writer, touch));
    }
  }
  const outputs: { callId: string; value: JsonValue }[] = [];
  let outputBytes: number | undefined;
  if (commit.output !== undefined) {
    const copy = toJsonValue(commit.output);
    if (!copy.ok) return failure("OUTPUT_WRITE_FAILED", `output: ${copy.message}`);
    const reference = formatReference("calls", [record.callId]);
    outputs.push({ callId: record.callId, value: copy.value });
    outputBytes = copy.bytes;
    const previous = overlay.get(reference);
    overlay.put(
      variableFor(previous, "calls", reference, [record.callId], copy.value, writer, seq++, outputBytes),
    );
  }
  const writes = copies.map((c) => c.write);
  const recordCopy = copyRecord(record, commit, writes, outputs[0]?.value);
  if (!recordCopy.ok) return failure("OUTPUT_WRITE_FAILED", `call record: ${recordCopy.message}`);
  const { upserts, removed } = overlay.result();
  const change: ThreadChange = {
    state,
    log,
    upserts,
    drops: removed,
    evictions: [],
    outputs,
    record: recordCopy.value,
    nextSeq: seq,
  };
  return { ok: true, change };
}

/**
 * The JSON size of the value now at a written path when it is known without walking it: the written value
 * itself (`set`, or a method that found nothing there), or an append to an array whose variable is current.
 */
function knownBytes(
  previous: VariableEntry | undefined,
  write: StateWrite,
  bytes: number,
  now: JsonValue,
): number | undefined {
  if (now === write.value) return bytes;
  if (previous === undefined || previous.meta.type !== "array" || !Array.isArray(now)) return undefined;
  const before = previous.meta.count ?? 0;
  if (write.method === "push")
    return now.length === before + 1 ? previous.meta.bytes + bytes + (before > 0 ? 1 : 0) : undefined;
  if (write.method !== "concat" || !Array.isArray(write.value)) return undefined;
  const added = write.value.length;
  if (now.length !== before + added) return undefined;
  return previous.meta.bytes + (added === 0 ? 0 : bytes - 2 + (before > 0 ? 1 : 0));
}

/** An ancestor variable whose value changed because something below it was written: new facts, same writer. */
export function refreshed(
  entry: VariableEntry,
  value: JsonValue,
  writer: Pick<Writer, "date" | "nowMs">,
  touch: number,
): VariableEntry {
  const { count: _count, countUnit: _unit, ...kept } = entry.meta;
  const meta: VariableMeta = {
    ...kept,
    ...describeValue(value),
    updatedAt: writer.date,
    version: entry.meta.version + 1,
  };
  return { meta, path: entry.path, touch, updatedMs: writer.nowMs };
}

type MutableRecord = { -readonly [K in keyof CallRecord]: CallRecord[K] };
type Copied = { ok: true; value: JsonValue | undefined } | { ok: false; message: string };

/** A JSON field of the record, copied (undefined stays undefined). */
const copiedField = (value: JsonValue | undefined): Copied =>
  value === undefined ? { ok: true, value: undefined } : copyJson(value);

/**
 * A frozen copy of the call record, built field by field in one fixed order (an object spread followed by
 * `Object.freeze` leaves V8 a slow dictionary object: ~1.5 µs per commit, and slower reads after). Fields
 * outside the CallRecord contract are not stored (both backends keep the same fields). Its JSON parts are
 * copied; a `result` that is the very value written (or stored as output) reuses that copy.
 */
function copyRecord(
  record: CallRecord,
  commit: CallCommit,
  writes: readonly StateWrite[],
  output: JsonValue | undefined,
): { ok: true; value: CallRecord } | { ok: false; message: string } {
  const params = copiedField(record.params);
  if (!params.ok) return params;
  const error = copiedField(record.error as JsonValue | undefined);
  if (!error.ok) return error;
  const reused =
    record.result === undefined
      ? undefined
      : record.result === commit.output
        ? output
        : record.result === commit.writes[0]?.value
          ? writes[0]?.value
          : undefined;
  const result: Copied = reused === undefined ? copiedField(record.result) : { ok: true, value: reused };
  if (!result.ok) return result;
  const copy = {
    threadId: record.threadId,
    runId: record.runId,
    callId: record.callId,
    tool: record.tool,
    status: record.status,
  } as MutableRecord;
  if (record.branch !== undefined) copy.branch = record.branch;
  copy.attempts = record.attempts;
  if (record.startedAt !== undefined) copy.startedAt = record.startedAt;
  if (record.endedAt !== undefined) copy.endedAt = record.endedAt;
  if (record.callHash !== undefined) copy.callHash = record.callHash;
  if (params.value !== undefined) copy.params = params.value;
  if (record.outputPath !== undefined) copy.outputPath = record.outputPath;
  copy.outputMethod = record.outputMethod;
  if (result.value !== undefined) copy.result = result.value;
  copy.wrote = Object.freeze(record.wrote.slice());
  if (error.value !== undefined) copy.error = error.value as unknown as RecordedError;
  if (record.reason !== undefined) copy.reason = record.reason;
  if (record.description !== undefined) copy.description = record.description;
  return { ok: true, value: Object.freeze(copy) };
}
