import type { JsonObject, JsonValue, Mutable, Path } from "@obelisk/core";
import {
  applyOutputInPlace,
  DEFAULT_LIMITS,
  FORBIDDEN_SEGMENTS,
  formatReference,
  getAtPath,
  itemCountOf,
  itemUnitOf,
  jsonByteSize,
  jsonTypeOf,
  toJsonValue,
  type WriteJournal,
} from "@obelisk/core";
import type {
  CallCommit,
  CallRecord,
  CommitResult,
  RecordedError,
  StateWrite,
  VariableMeta,
} from "../store-types.js";
import { describeValue, storedPreview } from "./describe-value.js";
import { isFrozenJson } from "./frozen-json.js";
import { ModelOverlay } from "./model-overlay.js";
import { isStateReference } from "./state-reference.js";
import type { SchemaPlan } from "./state-validator.js";
import { supersededBelow, type TombstonesBelow } from "./superseded-below.js";
import type { ThreadChange, ThreadModel, VariableEntry } from "./thread-model.js";

type CommitFailure = Extract<CommitResult, { ok: false }>;

const NONE: readonly never[] = Object.freeze([]);

const failure = (
  code: CommitFailure["error"]["code"],
  message: string,
  reference?: string,
): CommitFailure => ({
  ok: false,
  error: reference === undefined ? { code, message } : { code, message, reference },
});

/** Who wrote a variable and when: one per commit, shared by the variables it writes. */
interface Writer {
  /** The writer as stored in the metadata (one object shared by the commit's variables). */
  readonly call: VariableMeta["writer"];
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
  const type = jsonTypeOf(value);
  const size = bytes ?? jsonByteSize(value);
  const preview = storedPreview(value);
  const createdAt = previous?.meta.createdAt ?? writer.date;
  const version = (previous?.meta.version ?? 0) + 1;
  const count = itemCountOf(value);
  const { call, runId, date: updatedAt } = writer;
  // a write without a description keeps the variable's (M3: appending to a described list kept nothing)
  const description = writer.description ?? previous?.meta.description;
  // One literal per combination of the optional fields, all in the metadata's documented key order: no
  // object grown field by field (that moves its fields to a separate, grown property store).
  let meta: VariableMeta;
  if (count === undefined)
    meta =
      description === undefined
        ? { reference, scope, type, bytes: size, preview, writer: call, runId, createdAt, updatedAt, version }
        : {
            reference,
            scope,
            type,
            bytes: size,
            preview,
            description,
            writer: call,
            runId,
            createdAt,
            updatedAt,
            version,
          };
  else {
    const countUnit = itemUnitOf(value);
    meta =
      description === undefined
        ? {
            reference,
            scope,
            type,
            bytes: size,
            preview,
            count,
            countUnit,
            writer: call,
            runId,
            createdAt,
            updatedAt,
            version,
          }
        : {
            reference,
            scope,
            type,
            bytes: size,
            preview,
            count,
            countUnit,
            description,
            writer: call,
            runId,
            createdAt,
            updatedAt,
            version,
          };
  }
  return { meta, path, touch, updatedMs: writer.nowMs };
}

/** True when a path segment may not be written. */
function forbiddenPath(path: Path): boolean {
  if (path.length === 0) return true;
  for (const segment of path) if (typeof segment === "string" && FORBIDDEN_SEGMENTS.has(segment)) return true;
  return false;
}

/**
 * The JSON size of a number other than -0, a boolean or null, which `toJsonValue` would return as they
 * are; -1 for anything else (strings included: their size depends on escaping).
 */
function scalarBytes(value: unknown): number {
  if (typeof value === "number")
    return Number.isFinite(value) && !Object.is(value, -0) ? String(value).length : -1;
  if (typeof value === "boolean") return value ? 4 : 5;
  return value === null ? 4 : -1;
}

/**
 * Copies the written values (frozen) into `copies`, their JSON sizes into `sizes` (both sized for the
 * writes: filled by index, no growth); fails on the first value that is not JSON. A path that already
 * holds a state variable reuses that variable's (frozen) path and reference text, so rewriting a variable
 * retains no new path or string; otherwise a frozen path is kept as it is and any other is copied, and the
 * write's reference text is kept when it is the path's canonical text (else that text is built).
 */
function copyWrites(
  model: ThreadModel,
  writes: readonly StateWrite[],
  copies: StateWrite[],
  sizes: number[],
  maxBytes: number,
): CommitFailure | undefined {
  for (let index = 0; index < writes.length; index++) {
    const write = writes[index] as StateWrite;
    const known = model.trie.referenceAt(write.path);
    const entry = known === undefined ? undefined : model.variables.get(known);
    const reference =
      entry?.meta.reference ??
      (typeof write.reference === "string" && isStateReference(write.reference, write.path)
        ? write.reference
        : formatReference("state", write.path));
    if (entry === undefined && forbiddenPath(write.path))
      return failure("OUTPUT_WRITE_FAILED", `cannot write to ${reference}`, reference);
    let value = write.value;
    let bytes = scalarBytes(value);
    if (bytes < 0) {
      const copy = toJsonValue(value, { maxBytes });
      if (!copy.ok) return failure("OUTPUT_WRITE_FAILED", `${reference}: ${copy.message}`, reference);
      value = copy.value;
      bytes = copy.bytes;
    }
    const path =
      entry !== undefined
        ? entry.path
        : Object.isFrozen(write.path)
          ? write.path
          : Object.freeze(write.path.slice());
    copies[index] = { path, method: write.method, value, reference };
    sizes[index] = bytes;
  }
  return undefined;
}

/** True for a planned failure (as opposed to a planned change). */
export const isCommitFailure = (planned: ThreadChange | CommitFailure): planned is CommitFailure =>
  "error" in planned;

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
): ThreadChange | CommitFailure {
  const count = commit.writes.length;
  const writes: StateWrite[] = new Array(count);
  const sizes: number[] = new Array(count);
  const refused = copyWrites(model, commit.writes, writes, sizes, maxBytesOf(commit));
  if (refused !== undefined) return refused;
  const schemaPlan = model.validator?.plan(model.state, writes);
  try {
    // the writes in order, in place (core `applyOutputInPlace`), every change journaled
    let state: JsonValue = model.state;
    let cleared: string[] | undefined;
    const tombstoned = model.stateTombstones;
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
    const planned = planApplied(model, commit, nowMs, date, writes, sizes, state as JsonObject, schemaPlan);
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
  writes: readonly StateWrite[],
  sizes: readonly number[],
  state: JsonObject,
  schemaPlan: SchemaPlan | undefined,
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
  let seq = model.nextSeq;
  const overlay = new ModelOverlay(model);
  const commitLog = { firstSeq: seq, date, writes };
  for (let index = 0; index < writes.length; index++) {
    const write = writes[index] as StateWrite;
    const touch = seq++;
    const below = overlay.descendants(write.path);
    if (below.length > 0) settleBelow(overlay, write, below, state, writer, touch);
    // after a `set` the written value is what the path holds
    const here = write.method === "set" ? write.value : valueAt(state, write.path);
    if (here === undefined) continue;
    const previous = overlay.get(write.reference);
    const known = knownBytes(previous, write, sizes[index] as number, here);
    overlay.put(variableFor(previous, "state", write.reference, write.path, here, writer, touch, known));
    const above = overlay.ancestors(write.path);
    for (let at = 0; at < above.length; at++) {
      const entry = above[at] as VariableEntry;
      const value = valueAt(state, entry.path);
      if (value !== undefined) overlay.put(refreshed(entry, value, writer, touch));
    }
  }
  let outputs: ThreadChange["outputs"] = NONE;
  let output: JsonValue | undefined;
  // a satisfied call (a re-sent plan) sends an output only when the thread lost it or holds another
  // value under its id (the scheduler compares): one it still holds stays as it is (no new version)
  if (commit.output !== undefined) {
    const copy = toJsonValue(commit.output, { maxBytes: maxBytesOf(commit) });
    if (!copy.ok) return failure("OUTPUT_WRITE_FAILED", `output: ${copy.message}`);
    const reference = formatReference("calls", [record.callId]);
    output = copy.value;
    outputs = [{ callId: record.callId, value: output }];
    const previous = overlay.get(reference);
    overlay.put(
      variableFor(previous, "calls", reference, [record.callId], output, writer, seq++, copy.bytes),
    );
  }
  const recordCopy = copyRecord(record, commit, writes, output);
  if (recordCopy instanceof NotJson)
    return failure("OUTPUT_WRITE_FAILED", `call record: ${recordCopy.message}`);
  const { upserts, removed } = overlay.result();
  return {
    state,
    log: NONE,
    commitLog,
    upserts,
    drops: removed,
    evictions: NONE,
    clearedTombstones: NONE,
    outputs,
    record: recordCopy,
    nextSeq: seq,
  };
}

/**
 * The variables below a written path: a `set` replaces the value, so they are superseded (dropped). An
 * accumulating write keeps those whose values it left as they were (an append never changes existing
 * items; `assign` and `merge` leave the keys they do not name) and refreshes those a deep `merge` changed
 * inside, keeping their writer and description.
 */
function settleBelow(
  overlay: ModelOverlay,
  write: StateWrite,
  below: readonly VariableEntry[],
  state: JsonObject,
  writer: Writer,
  touch: number,
): void {
  for (let at = 0; at < below.length; at++) {
    const entry = below[at] as VariableEntry;
    const fate = write.method === "set" ? "drop" : fateBelow(write, entry.path, state);
    if (fate === "drop") overlay.remove(entry.meta.reference);
    else if (fate === "refresh") {
      const value = valueAt(state, entry.path);
      if (value === undefined) overlay.remove(entry.meta.reference);
      else overlay.put(refreshed(entry, value, writer, touch));
    }
  }
}

/** What an accumulating write did to a variable below its path (see {@link settleBelow}). */
function fateBelow(write: StateWrite, path: Path, state: JsonObject): "keep" | "drop" | "refresh" {
  if (write.method === "push" || write.method === "concat") return "keep";
  let level: JsonValue = write.value;
  for (let depth = write.path.length; depth < path.length; depth++) {
    const segment = path[depth];
    if (typeof level !== "object" || level === null || Array.isArray(level)) return "keep";
    if (typeof segment !== "string" || !Object.hasOwn(level, segment)) return "keep";
    if (write.method === "assign") return "drop";
    const next = (level as JsonObject)[segment] as JsonValue;
    // merge places a value as it is where it replaces (not both objects): the same value is there now
    const here = valueAt(state, path.slice(0, depth + 1));
    if (here === next && here !== undefined) return "drop";
    if (depth === path.length - 1) return "refresh";
    level = next;
  }
  return "keep";
}

/** The value at a path of the state, or undefined when there is none (JSON has no undefined). */
function valueAt(state: JsonObject, path: Path): JsonValue | undefined {
  const found = getAtPath(state, path);
  return found.found ? found.value : undefined;
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

/**
 * An ancestor variable whose value changed because something below it was written: new facts, same writer,
 * run id and description (they name the write of the path itself).
 */
export function refreshed(
  entry: VariableEntry,
  value: JsonValue,
  writer: { readonly date: string; readonly nowMs: number },
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

/** Frozen one-reference `wrote` lists by reference, shared by the records (bounded: cleared when full). */
const SINGLE_WROTE = new Map<string, readonly string[]>();
const SINGLE_WROTE_MAX = 4096;

/** True when every item of a list is a string. */
function allStrings(list: readonly unknown[]): boolean {
  for (let index = 0; index < list.length; index++) if (typeof list[index] !== "string") return false;
  return true;
}

/**
 * A frozen copy of a record's `wrote`: a frozen list of strings (what the scheduler hands over) is kept as
 * it is. Otherwise most calls write one target: those share one frozen array per reference text (records
 * are frozen, so sharing is invisible), instead of each retaining its own; once the table is full, new
 * texts get their own array (clearing it would make a plan of many distinct targets rebuild it forever).
 */
function frozenWrote(wrote: readonly string[]): readonly string[] {
  if (Object.isFrozen(wrote) && allStrings(wrote)) return wrote;
  if (wrote.length !== 1) return Object.freeze(wrote.slice());
  const only = wrote[0] as string;
  let shared = SINGLE_WROTE.get(only);
  if (shared === undefined) {
    shared = Object.freeze([only]);
    if (SINGLE_WROTE.size < SINGLE_WROTE_MAX) SINGLE_WROTE.set(only, shared);
  }
  return shared;
}

/** The largest value a commit may store: the engine's limit it carries, or the default. */
function maxBytesOf(commit: CallCommit): number {
  return commit.maxValueBytes ?? DEFAULT_LIMITS.maxValueBytes;
}

/** Why a field of the record is not JSON. */
class NotJson {
  constructor(readonly message: string) {}
}

/**
 * A JSON field of the record as stored (undefined stays undefined): a value that is already deep-frozen
 * JSON ({@link isFrozenJson}, e.g. the parameters the scheduler resolved and froze) is kept, as its copy
 * could not differ from it; anything else is copied.
 */
function storedField(value: JsonValue | undefined, maxBytes: number): JsonValue | undefined | NotJson {
  if (value === undefined || isFrozenJson(value, maxBytes)) return value;
  const copy = toJsonValue(value, { maxBytes });
  return copy.ok ? copy.value : new NotJson(copy.message);
}

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
): CallRecord | NotJson {
  // Never below the default: a small engine limit must not lose the record of a call that failed (a tool's
  // error is not held to that limit, and the error reporting OUTPUT_TOO_LARGE may pass it itself).
  const maxBytes = Math.max(maxBytesOf(commit), DEFAULT_LIMITS.maxValueBytes);
  const params = storedField(record.params, maxBytes);
  if (params instanceof NotJson) return params;
  const error = storedField(record.error as JsonValue | undefined, maxBytes);
  if (error instanceof NotJson) return error;
  const reused =
    record.result === undefined
      ? undefined
      : record.result === commit.output
        ? output
        : record.result === commit.writes[0]?.value
          ? writes[0]?.value
          : undefined;
  const result = reused === undefined ? storedField(record.result, maxBytes) : reused;
  if (result instanceof NotJson) return result;
  const { startedAt, endedAt, callHash, outputPath } = record;
  if (
    startedAt !== undefined &&
    endedAt !== undefined &&
    callHash !== undefined &&
    params !== undefined &&
    result !== undefined &&
    record.branch === undefined &&
    error === undefined &&
    record.reason === undefined &&
    record.description === undefined
  ) {
    // The common completed call in one literal, fields in the same order as below.
    const { threadId, runId, callId, tool, status, attempts, outputMethod } = record;
    const wrote = frozenWrote(record.wrote);
    return Object.freeze(
      outputPath === undefined
        ? {
            threadId,
            runId,
            callId,
            tool,
            status,
            attempts,
            startedAt,
            endedAt,
            callHash,
            params,
            outputMethod,
            result,
            wrote,
          }
        : {
            threadId,
            runId,
            callId,
            tool,
            status,
            attempts,
            startedAt,
            endedAt,
            callHash,
            params,
            outputPath,
            outputMethod,
            result,
            wrote,
          },
    );
  }
  const copy = {
    threadId: record.threadId,
    runId: record.runId,
    callId: record.callId,
    tool: record.tool,
    status: record.status,
  } as Mutable<CallRecord>;
  if (record.branch !== undefined) copy.branch = record.branch;
  copy.attempts = record.attempts;
  if (record.startedAt !== undefined) copy.startedAt = record.startedAt;
  if (record.endedAt !== undefined) copy.endedAt = record.endedAt;
  if (record.callHash !== undefined) copy.callHash = record.callHash;
  if (params !== undefined) copy.params = params;
  if (record.outputPath !== undefined) copy.outputPath = record.outputPath;
  copy.outputMethod = record.outputMethod;
  if (result !== undefined) copy.result = result;
  copy.wrote = frozenWrote(record.wrote);
  if (error !== undefined) copy.error = error as unknown as RecordedError;
  if (record.reason !== undefined) copy.reason = record.reason;
  if (record.description !== undefined) copy.description = record.description;
  return Object.freeze(copy);
}
