import type { Diagnostic, JsonValue, OutputMethod, OutputTarget, Path, Reference } from "@obelisk/core";
import {
  appendPointer,
  formatReference,
  getAtPath,
  indexPastEndMessage,
  isJsonArray,
  isJsonObject,
  OUTPUT_METHODS,
} from "@obelisk/core";
import type { CallEntry } from "./builder-types.js";
import { createdContainerMismatch } from "./created-container-schema.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import type { PlanBuilder } from "./plan-builder.js";

/** Why a write into the stored state cannot apply, found on the way down its path. */
interface Blocked {
  /** How many segments of the target's path lead to the stored value that blocks it. */
  readonly depth: number;
  /** What is wrong, after "†state.x cannot be written: " (or the method's verb). */
  readonly reason: string;
  readonly hint: string;
  /**
   * True when a write below the blocking value could unblock it: an index past the end of a stored array,
   * or past 0 of one the write creates (an earlier writer may create or lengthen it first).
   */
  readonly byLength: boolean;
}

/** Short description of a stored value's JSON type, as core's `applyOutput` words it. */
function describe(value: JsonValue): string {
  if (value === null) return "null";
  if (isJsonArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** The reference text of the first `depth` segments of `path` (only on the failure path). */
const textOf = (path: Path, depth: number): string => formatReference("state", path.slice(0, depth));

/** The container each accumulating method needs at an existing path (`set` replaces anything). */
const NEEDS: Readonly<Record<OutputMethod, "object" | "array" | undefined>> = {
  set: undefined,
  merge: "object",
  assign: "object",
  push: "array",
  concat: "array",
};

/**
 * Why a write of `path` certainly fails below `missing`, the first of its prefixes the state does not hold
 * (its length): the write itself creates what is missing — an object for a name, an **empty** array for an
 * index (core's `applyOutput`) — so the first index past 0 from there on is past the end of an array the
 * write just created (`†state.a[1]`, `†state.a.b[2]` with `a` missing, `†state.a[0][1]`). Undefined when
 * every index from there on is 0 (each appends to the array created for it).
 */
function createdPastEnd(path: Path, missing: number): Blocked | undefined {
  for (let depth = missing; depth < path.length; depth++) {
    const segment = path[depth] as Path[number];
    if (typeof segment === "string" || segment === 0) continue;
    const gone = textOf(path, missing);
    const here = textOf(path, depth);
    const made = depth === missing ? "creates an empty array there" : `creates ${here} as an empty array`;
    const reason = `the thread's state holds nothing at ${gone}, and the write ${made}: ${indexPastEndMessage(segment, 0)}`;
    const hint = `write to ${here}[0] (a missing array is created empty), or let an earlier call write it first, or append with _outputMethod "push" onto ${here}`;
    return { depth, reason, hint, byLength: true };
  }
  return undefined;
}

/**
 * Below a missing value, the first container the write creates that the state schema certainly types as
 * the other kind (decision 0107); only asked when no index there fails first, as core's write would.
 */
function createdAgainstSchema(builder: PlanBuilder, path: Path, missing: number): Blocked | undefined {
  const stateSchema = builder.settings.context.stateSchema;
  if (stateSchema === undefined || missing >= path.length) return undefined;
  const mismatch = createdContainerMismatch(stateSchema, builder.declaredTypes, path, missing);
  return mismatch === undefined ? undefined : { ...mismatch, byLength: true };
}

/**
 * Walks `path` down the stored `state` as core's `applyOutput` would write it with `method` (undefined:
 * the method is not known, only the way down is judged): why the write certainly fails on this value,
 * or undefined when it may apply. A missing value on the way is created by the write (see
 * `createdPastEnd`): below it only an index past 0 can fail, or a created container the state schema types
 * as the other kind (`createdAgainstSchema`); no method fails on a missing target (a value `concat` or
 * `assign` cannot take fails anywhere: `check-output-method-value.ts`).
 */
function blockedAt(
  builder: PlanBuilder,
  state: JsonValue,
  path: Path,
  method: OutputMethod | undefined,
): Blocked | undefined {
  let value: JsonValue | undefined = state;
  for (let depth = 0; depth < path.length; depth++) {
    const segment = path[depth] as Path[number];
    if (isJsonArray(value)) {
      if (typeof segment === "string") {
        const here = textOf(path, depth);
        const reason = `the thread's state holds an array at ${here}, which takes indices, not the key "${segment}"`;
        const hint = `write to an item of ${here} (${here}[0]), or append to it with _outputMethod "push"`;
        return { depth, reason, hint, byLength: false };
      }
      if (segment > value.length) {
        const here = textOf(path, depth);
        const reason = `the thread's state holds an array at ${here}: ${indexPastEndMessage(segment, value.length)}`;
        const hint = `write to ${here}[${value.length}] or below it, or append with _outputMethod "push" onto ${here}`;
        return { depth, reason, hint, byLength: true };
      }
      value = value[segment];
    } else if (isJsonObject(value)) {
      const key = String(segment);
      value = Object.hasOwn(value, key) ? value[key] : undefined;
    } else {
      const here = textOf(path, depth);
      const reason = `the thread's state holds ${describe(value)} at ${here}, and nothing can be written through it`;
      const hint = `write to ${here} itself (set replaces it), or to a path outside it`;
      return { depth, reason, hint, byLength: false };
    }
    if (value === undefined)
      return createdPastEnd(path, depth + 1) ?? createdAgainstSchema(builder, path, depth + 1);
  }
  const needs = method === undefined ? undefined : NEEDS[method];
  if (needs === undefined) return undefined;
  if (needs === "object" ? isJsonObject(value) : isJsonArray(value)) return undefined;
  const here = textOf(path, path.length);
  const reason = `the thread's state holds ${describe(value)} at ${here}, and ${method} needs ${needs === "object" ? "an object" : "an array"} there`;
  const hint = `use _outputMethod "set" to replace it, or ${method} into another path`;
  return { depth: path.length, reason, hint, byLength: false };
}

/**
 * REF_TYPE_MISMATCH at `/_outputPath` for each `†state` target of a compiled call that the thread's stored
 * state (`context.state`) certainly refuses, as core's `applyOutput` would at run time: a path through a
 * stored string, number, boolean or null, a key into a stored array or an index past its end, or `push` /
 * `concat` onto a stored non-array and `merge` / `assign` onto a stored non-object (decision 0091), an
 * index past 0 into an array the write itself creates where the state holds nothing, or a container it
 * creates there that the state schema types as the other kind (decision 0107; both asked like an index
 * past the end). Only
 * when no other target of the plan (of any call, compiled or not, this one's other targets included)
 * writes the blocking stored path or a path above it — it could change that value's kind first; a writer
 * at the path itself with an accumulating method keeps the kind and does not count. For an index past the
 * end (of a stored or a created array), any other writer at or above the array counts, and one below it
 * of an earlier call or of this one (it may create or lengthen it first; a later call is not known to a
 * stream, so batch does not count it either), or of any call when this one waits for it: it reads a path
 * at or below the array that the stored state does not hold (`waitsBelow`).
 * True when one was found.
 */
export function storedStateWrites(builder: PlanBuilder, entry: CallEntry, out: Diagnostic[]): boolean {
  const state = builder.settings.context.state;
  const call = entry.call;
  if (state === undefined || call.outputPath === undefined) return false;
  // An invalid `_outputMethod` (OUTPUT_METHOD_INVALID) says nothing about how the value is combined.
  const given = call.raw._outputMethod;
  const method = given === undefined || given === call.outputMethod ? call.outputMethod : undefined;
  let said: Set<string> | undefined;
  for (const targets of entry.alternatives) {
    for (const target of targets) {
      if (target.kind !== "state") continue;
      const blocked = blockedAt(builder, state, target.path, method);
      if (blocked === undefined || writtenAbove(builder, entry, target, blocked)) continue;
      const message = `${target.text} cannot be written: ${blocked.reason}`;
      // once per call: alternatives may repeat a target
      if (said?.has(message)) continue;
      said ??= new Set();
      said.add(message);
      const at =
        call.raw._outputPath === undefined ? call.pointer : appendPointer(call.pointer, "_outputPath");
      out.push(makeDiagnostic("REF_TYPE_MISMATCH", message, at, { callId: call.id, hint: blocked.hint }));
    }
  }
  return said !== undefined;
}

/**
 * True when another target of the plan may change the stored value that blocks `target` first: one of
 * another call (the builder's writer indexes, O(path length)), or another of this call's own.
 */
function writtenAbove(
  builder: PlanBuilder,
  entry: CallEntry,
  target: OutputTarget,
  blocked: Blocked,
): boolean {
  const path = target.path.slice(0, blocked.depth);
  return (
    builder.writesOver("state", path, blocked.byLength, entry.index) ||
    ownWriteOver(entry, target, path, blocked) ||
    (blocked.byLength && waitsBelow(builder, entry, path))
  );
}

/** True when `path` starts with every segment of `prefix` (compared as text, as `ownWriteOver` does). */
function startsWith(path: Path, prefix: Path): boolean {
  if (path.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (String(path[i]) !== String(prefix[i])) return false;
  return true;
}

/**
 * True when the call reads, as an expression of one operand, a `†state` path at or below the array `path`
 * that the stored state does not hold (review s42 rv #2): the call waits for a writer of that path, in a
 * batch and in a stream alike (a streamed reader with no writer yet and no stored value waits for one), so
 * it commits after it, and every such writer is at or above the array (counted by `writesOver`) or below
 * it — it may create or lengthen it first, like an earlier writer below. O(operands × path length), asked
 * only for a refused target.
 */
function waitsBelow(builder: PlanBuilder, entry: CallEntry, path: Path): boolean {
  const state = builder.settings.context.state;
  if (state === undefined) return false;
  const { operands, operandShape } = entry.call;
  let next = 0;
  const single = (reference: Reference): boolean =>
    reference.kind === "state" && startsWith(reference.path, path) && !getAtPath(state, reference.path).found;
  if (operandShape === undefined) {
    for (const operand of operands) if (single(operand.reference)) return true;
    return false;
  }
  // per expression: its number of alternatives, then each alternative's number of operands
  for (let at = 0; at < operandShape.length; ) {
    const alternatives = operandShape[at++] as number;
    let count = 0;
    for (let a = 0; a < alternatives; a++) count += operandShape[at++] as number;
    const operand = operands[next];
    if (alternatives === 1 && count === 1 && operand !== undefined && single(operand.reference)) return true;
    next += count;
  }
  return false;
}

/**
 * True when another target of the call itself writes above the blocking `path`, or at it without
 * accumulating, or (an index past the end) anywhere at or below it too: batch and streaming alike (a
 * streamed call's targets are not indexed yet when it is checked).
 */
function ownWriteOver(entry: CallEntry, target: OutputTarget, path: Path, blocked: Blocked): boolean {
  const accumulating = OUTPUT_METHODS[entry.call.outputMethod].accumulating;
  for (const targets of entry.alternatives) {
    for (const other of targets) {
      if (other === target || other.kind !== "state") continue;
      const length = Math.min(other.path.length, path.length);
      let same = true;
      for (let i = 0; i < length && same; i++) same = String(other.path[i]) === String(path[i]);
      if (!same) continue;
      if (other.path.length < path.length) return true;
      if (blocked.byLength || (other.path.length === path.length && !accumulating)) return true;
    }
  }
  return false;
}
