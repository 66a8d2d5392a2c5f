import type { JsonObject, JsonValue, Path } from "@obelisk/core";
import { applyOutput, FORBIDDEN_SEGMENTS, formatReference, getAtPath } from "@obelisk/core";
import type {
  CallCommit,
  CallRecord,
  CommitResult,
  StateWrite,
  VariableMeta,
  WriteLogEntry,
} from "../store-types.js";
import { copyJson, freezeNew } from "./copy-json.js";
import { describeValue } from "./describe-value.js";
import { ModelOverlay } from "./model-overlay.js";
import type { ThreadChange, ThreadModel, VariableEntry } from "./thread-model.js";

type CommitFailure = Extract<CommitResult, { ok: false }>;
/** A planned commit: the change to persist, or the reason nothing is written. */
export type PlannedCommit = { readonly ok: true; readonly change: ThreadChange } | CommitFailure;

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
): VariableEntry {
  const meta: VariableMeta = {
    reference,
    scope,
    ...describeValue(value),
    ...(writer.description === undefined ? {} : { description: writer.description }),
    writer: { callId: writer.callId, tool: writer.tool },
    runId: writer.runId,
    createdAt: previous?.meta.createdAt ?? writer.date,
    updatedAt: writer.date,
    version: (previous?.meta.version ?? 0) + 1,
  };
  return { meta, path, touch, updatedMs: writer.nowMs };
}

/** Applies the writes in order; fails without side effects on the first impossible write. */
function foldWrites(
  state: JsonObject,
  writes: readonly StateWrite[],
): { ok: true; state: JsonObject; writes: StateWrite[] } | CommitFailure {
  let current: JsonValue = state;
  const copies: StateWrite[] = [];
  for (const write of writes) {
    const reference = formatReference("state", write.path);
    if (
      write.path.length === 0 ||
      write.path.some((s) => typeof s === "string" && FORBIDDEN_SEGMENTS.has(s))
    ) {
      return failure("OUTPUT_WRITE_FAILED", `cannot write to ${reference}`, reference);
    }
    const copy = copyJson(write.value);
    if (!copy.ok) return failure("OUTPUT_WRITE_FAILED", `${reference}: ${copy.message}`, reference);
    const applied = applyOutput(current, write.path, write.method, copy.value);
    if (!applied.ok) return failure("OUTPUT_WRITE_FAILED", `${reference}: ${applied.message}`, reference);
    current = applied.value;
    copies.push({ path: Object.freeze([...write.path]), method: write.method, value: copy.value, reference });
  }
  return { ok: true, state: freezeNew(current) as JsonObject, writes: copies };
}

/** Plans one call's commit against a thread model: fold, validate, variables, log. Pure: the model is untouched. */
export function planCommit(model: ThreadModel, commit: CallCommit, nowMs: number): PlannedCommit {
  const folded = foldWrites(model.state, commit.writes);
  if (!folded.ok) return folded;
  const failed = model.validator?.check(model.state, folded.state, folded.writes);
  if (failed !== undefined) return failure("OUTPUT_SCHEMA_VIOLATION", failed.message, failed.reference);
  const { record } = commit;
  const writer: Writer = {
    callId: record.callId,
    tool: record.tool,
    runId: record.runId,
    description: record.description,
    date: new Date(nowMs).toISOString(),
    nowMs,
  };
  let seq = model.nextSeq;
  const overlay = new ModelOverlay(model);
  const log: WriteLogEntry[] = [];
  for (const write of folded.writes) {
    const touch = seq++;
    log.push({
      seq: touch,
      runId: record.runId,
      call: { id: record.callId, tool: record.tool },
      date: writer.date,
      write,
    });
    for (const below of overlay.descendants(write.path)) overlay.remove(below.meta.reference);
    const here = getAtPath(folded.state, write.path);
    if (!here.found) continue;
    overlay.put(
      variableFor(
        overlay.get(write.reference),
        "state",
        write.reference,
        write.path,
        here.value,
        writer,
        touch,
      ),
    );
    for (const above of overlay.ancestors(write.path)) {
      const value = getAtPath(folded.state, above.path);
      if (value.found) overlay.put(refreshed(above, value.value, writer, touch));
    }
  }
  const outputs: { callId: string; value: JsonValue }[] = [];
  if (commit.output !== undefined) {
    const copy = copyJson(commit.output);
    if (!copy.ok) return failure("OUTPUT_WRITE_FAILED", `output: ${copy.message}`);
    const reference = formatReference("calls", [record.callId]);
    outputs.push({ callId: record.callId, value: copy.value });
    overlay.put(
      variableFor(overlay.get(reference), "calls", reference, [record.callId], copy.value, writer, seq++),
    );
  }
  const recordCopy = copyRecord(record, commit, folded.writes, outputs[0]?.value);
  if (!recordCopy.ok) return failure("OUTPUT_WRITE_FAILED", `call record: ${recordCopy.message}`);
  const { upserts, removed } = overlay.result();
  const change: ThreadChange = {
    state: folded.state,
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

/**
 * A frozen copy of the call record. Its JSON parts are copied; a `result` that is the very value written
 * (or stored as output) reuses that copy instead of copying it twice.
 */
function copyRecord(
  record: CallRecord,
  commit: CallCommit,
  writes: readonly StateWrite[],
  output: JsonValue | undefined,
): { ok: true; value: CallRecord } | { ok: false; message: string } {
  const copy: { -readonly [K in keyof CallRecord]: CallRecord[K] } = {
    ...record,
    wrote: Object.freeze([...record.wrote]),
  };
  for (const key of ["params", "result", "error"] as const) {
    const value = record[key];
    if (value === undefined) continue;
    if (key === "result" && value === commit.output && output !== undefined) copy.result = output;
    else if (key === "result" && value === commit.writes[0]?.value && writes[0] !== undefined)
      copy.result = writes[0].value;
    else {
      const copied = copyJson(value);
      if (!copied.ok) return copied;
      (copy as Record<string, unknown>)[key] = copied.value;
    }
  }
  return { ok: true, value: Object.freeze(copy) };
}
