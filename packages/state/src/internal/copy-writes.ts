import type { Path } from "@obelisk/core";
import {
  DEFAULT_LIMITS,
  FORBIDDEN_SEGMENTS,
  formatReference,
  MAX_VALUE_DEPTH,
  toJsonValue,
} from "@obelisk/core";
import type { CallCommit, StateWrite } from "../store-types.js";
import { type CommitFailure, failure } from "./commit-failure.js";
import { ABSENT } from "./path-trie.js";
import { isStateReference } from "./state-reference.js";
import type { ThreadModel } from "./thread-model.js";
import { tooDeepMessage, writtenDepth } from "./written-depth.js";

/** The largest value a commit may store: the engine's limit it carries, or the default. */
export function maxBytesOf(commit: CallCommit): number {
  return commit.maxValueBytes ?? DEFAULT_LIMITS.maxValueBytes;
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
  if (typeof value === "number") {
    // a safe integer's text is its digits (and sign): counted, not built (a string per write otherwise)
    if (Number.isSafeInteger(value) && !Object.is(value, -0)) return integerDigits(value);
    return Number.isFinite(value) && !Object.is(value, -0) ? String(value).length : -1;
  }
  if (typeof value === "boolean") return value ? 4 : 5;
  return value === null ? 4 : -1;
}

/** The length of a safe integer's decimal text (`String(value).length`), sign included. */
function integerDigits(value: number): number {
  let digits = value < 0 ? 2 : 1;
  const magnitude = Math.abs(value);
  // powers of ten up to 1e16 are exact doubles, and a safe integer is below 2^53 < 1e16
  for (let power = 10; power <= magnitude; power *= 10) digits++;
  return digits;
}

/** The refusal of a commit whose writes hold more than `maxBytes` in all (known once `total` passed it). */
function fanOutTooLarge(count: number, total: number, maxBytes: number): CommitFailure {
  return failure(
    "OUTPUT_TOO_LARGE",
    count === 1
      ? `the value is larger than ${maxBytes} bytes of JSON (limits.maxValueBytes)`
      : `the call's ${count} writes hold more than ${maxBytes} bytes of JSON in all (at least ${total}; limits.maxValueBytes bounds what one call writes): write the value to fewer targets, or raise the limit`,
  );
}

/**
 * Copies the written values (frozen) into `copies`, their JSON sizes into `sizes` (both sized for the
 * writes: filled by index, no growth); fails on the first value that is not JSON, or once the values
 * hold more than `maxBytes` in all (`OUTPUT_TOO_LARGE`: each target of a fan-out is a copy kept), or on one
 * that would nest deeper than `MAX_VALUE_DEPTH` in the state (`OUTPUT_WRITE_FAILED`, decision 0094). A path that already
 * holds a state variable reuses that variable's (frozen) path and reference text, so rewriting a variable
 * retains no new path or string; otherwise a frozen path is kept as it is and any other is copied, and the
 * write's reference text is kept when it is the path's canonical text (else that text is built).
 * Answers how many of the paths have nothing recorded at, above or below them in the model's trie
 * (`PathTrie.find` answers {@link ABSENT}): a new variable with none to settle or refresh.
 */
export function copyWrites(
  model: ThreadModel,
  writes: readonly StateWrite[],
  copies: StateWrite[],
  sizes: number[],
  maxBytes: number,
): CommitFailure | number {
  let absent = 0;
  let total = 0;
  for (let index = 0; index < writes.length; index++) {
    const write = writes[index] as StateWrite;
    const known = model.trie.find(write.path);
    if (known === ABSENT) absent++;
    const entry = known === undefined || known === ABSENT ? undefined : model.variables.get(known);
    const reference =
      entry?.meta.reference ??
      (typeof write.reference === "string" && isStateReference(write.reference, write.path)
        ? write.reference
        : formatReference("state", write.path));
    if (entry === undefined && forbiddenPath(write.path))
      return failure("OUTPUT_WRITE_FAILED", `cannot write to ${reference}`, reference);
    let value = write.value;
    let bytes = scalarBytes(value);
    let height = 0;
    if (bytes < 0) {
      const copy = toJsonValue(value, { maxBytes });
      if (!copy.ok) return failure("OUTPUT_WRITE_FAILED", `${reference}: ${copy.message}`, reference);
      value = copy.value;
      bytes = copy.bytes;
      height = copy.height;
    }
    // every value the state holds must be readable (copied) as a whole: decision 0094
    const depth = writtenDepth(write.path.length, height, write.method);
    if (depth > MAX_VALUE_DEPTH)
      return failure(
        "OUTPUT_WRITE_FAILED",
        tooDeepMessage(reference, write.path.length, height, depth),
        reference,
      );
    // every target of a fan-out is a copy the store keeps: together they are held to the limit (review 35 M3)
    total += bytes;
    if (total > maxBytes) return fanOutTooLarge(writes.length, total, maxBytes);
    const path =
      entry !== undefined
        ? entry.path
        : Object.isFrozen(write.path)
          ? write.path
          : Object.freeze(write.path.slice());
    copies[index] = { path, method: write.method, value, reference };
    sizes[index] = bytes;
  }
  return absent;
}
