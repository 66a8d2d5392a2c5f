import type { JsonObject, JsonValue, Path, RunId, ThreadId } from "@obelisk/core";
import { checkedClock, DEFAULT_LIMITS, MAX_VALUE_DEPTH, ObeliskError, toJsonValue } from "@obelisk/core";
import type { CommitFailure } from "../internal/commit-failure.js";
import { tooDeepMessage, writtenDepth } from "../internal/written-depth.js";
import type { CallCommit, NumberedCommitOptions, StateStore } from "../store-types.js";
import { checkOnScratch } from "./check-on-scratch.js";
import { hostEditRecord } from "./host-edit-record.js";
import { parseStoredReference, type ReferenceLimits } from "./parse-stored-reference.js";

/** The tool name recorded for values written by {@link setValue}. */
export const SET_VALUE_TOOL = "obelisk.set";

/** Options of {@link setValue} (`maxPathDepth`: the engine's, bounding the reference's depth; default 32). */
export interface SetValueOptions extends ReferenceLimits {
  /** Run id recorded with the write (default `obelisk.set`). */
  readonly runId?: RunId | undefined;
  /** Description of the value, shown in summaries. */
  readonly description?: string | undefined;
  /** Clock for the record's times (default `Date.now`). */
  readonly now?: (() => number) | undefined;
  /** Largest value that may be written, in bytes of JSON (the engine's `maxValueBytes`; default 64 MiB). */
  readonly maxValueBytes?: number | undefined;
  /**
   * The state schema the thread holds once the write is accepted, as `openThread(threadId, { stateSchema })`
   * gives it (the engine's `stateSchema`): the write is checked against it, and a refused write leaves the
   * thread's schema as it was. Default: the thread's own.
   */
  readonly stateSchema?: JsonObject | undefined;
}

/**
 * Writes one value by reference (`obelisk state set`) with the same checks as a tool's write: a `†state`
 * path, JSON value, no forbidden segment, the thread's state schema. Committed like a call
 * (tool `obelisk.set`, call id `obelisk-set$<n>` from the thread counter). Throws ObeliskError
 * (REF_*, OUTPUT_PATH_READONLY, OUTPUT_SCHEMA_VIOLATION, OUTPUT_WRITE_FAILED; USAGE for a value that would
 * nest deeper than `MAX_VALUE_DEPTH` in the state, its path's segments counted: decision 0094).
 *
 * A refused write changes nothing (SPEC §11): every check comes first, and the call number, the thread
 * (when the store does not hold it) and `options.stateSchema` are taken with the accepted commit only
 * (`commitNumbered`, one transaction in SQLite). A store without `commitNumbered` has the write checked on
 * a scratch memory copy of the thread first, then reserves the number and commits: a refusal only that
 * store makes (its own limits) still takes a number — never one another call gets.
 */
export async function setValue(
  store: StateStore,
  threadId: ThreadId,
  reference: string,
  value: JsonValue,
  options: SetValueOptions = {},
): Promise<{ readonly callId: string; readonly reference: string }> {
  const target = parseStoredReference(reference, true, options);
  if (target.path.length === 0)
    throw new ObeliskError("USAGE", "state set needs a path below †state (e.g. †state.user)");
  if (target.path.some((segment) => typeof segment === "number" && segment < 0)) {
    throw new ObeliskError("USAGE", `${target.text}: negative indices cannot be written`);
  }
  const build = commitBuilder(
    threadId,
    target.text,
    target.path,
    checkedDepth(target, value, options),
    options,
  );
  const numbering: NumberedCommitOptions =
    options.stateSchema === undefined ? {} : { stateSchema: options.stateSchema };
  if (store.commitNumbered !== undefined) {
    const result = await store.commitNumbered(threadId, build, numbering);
    if (!result.ok) throw refusal(result, target.text);
    return { callId: callIdOf(result.callNumber), reference: target.text };
  }
  const thread = await store.getThread(threadId);
  const refused = await checkOnScratch(store, thread, threadId, build, numbering);
  if (refused !== undefined) throw refusal(refused, target.text);
  if (options.stateSchema !== undefined && givesSchema(thread?.stateSchema, options.stateSchema))
    await store.openThread(threadId, { stateSchema: options.stateSchema });
  const number = await store.reserveCallNumbers(threadId, 1);
  const result = await store.commitCall(build(number));
  if (!result.ok) throw refusal(result, target.text);
  return { callId: callIdOf(number), reference: target.text };
}

/**
 * The value to write, as a frozen copy the commit takes as it is (`remember`: not copied again): USAGE when
 * it would nest deeper than `MAX_VALUE_DEPTH` below the target's path. A value the copy refuses (not JSON,
 * too large) is left to the commit, which refuses it as it always did.
 */
function checkedDepth(
  target: { readonly text: string; readonly path: Path },
  value: JsonValue,
  options: SetValueOptions,
): JsonValue {
  const copy = toJsonValue(value, {
    maxBytes: options.maxValueBytes ?? DEFAULT_LIMITS.maxValueBytes,
    remember: true,
  });
  if (!copy.ok) return value;
  const depth = writtenDepth(target.path.length, copy.height, "set");
  if (depth > MAX_VALUE_DEPTH)
    throw new ObeliskError("USAGE", tooDeepMessage(target.text, target.path.length, copy.height, depth), {
      data: { reference: target.text, maxDepth: MAX_VALUE_DEPTH },
      hint: `write the value at a shorter path, or store it less nested (${target.path.length} path segments leave ${Math.max(0, MAX_VALUE_DEPTH - target.path.length)} levels for the value)`,
    });
  return copy.value;
}

/** The call id of the `n`th automatic call of a thread written by {@link setValue}. */
const callIdOf = (callNumber: number): string => `obelisk-set$${callNumber}`;

/** The commit of the write, as the call numbered `callNumber`. */
function commitBuilder(
  threadId: ThreadId,
  reference: string,
  path: Path,
  value: JsonValue,
  options: SetValueOptions,
): (callNumber: number) => CallCommit {
  // its clock is checked as a store's is (decision 0061): a reading that is no time is USAGE, not a RangeError
  const date = new Date(checkedClock("setValue's now()", options.now ?? Date.now)()).toISOString();
  const writes = [{ path, method: "set" as const, value, reference }];
  return (callNumber) => ({
    record: hostEditRecord({
      threadId,
      runId: options.runId ?? ("obelisk.set" as RunId),
      callId: callIdOf(callNumber),
      tool: SET_VALUE_TOOL,
      date,
      reference,
      result: value,
      wrote: [reference],
      ...(options.description === undefined ? {} : { description: options.description }),
    }),
    writes,
    ...(options.maxValueBytes === undefined ? {} : { maxValueBytes: options.maxValueBytes }),
  });
}

/** True when giving a thread `wanted` changes the schema it holds (compared as JSON text, as SQLite stores it). */
function givesSchema(held: JsonObject | undefined, wanted: JsonObject): boolean {
  return JSON.stringify(wanted) !== JSON.stringify(held);
}

/** The error of a refused commit. */
function refusal(result: CommitFailure, reference: string): ObeliskError {
  return new ObeliskError(result.error.code, result.error.message, { data: { reference } });
}
