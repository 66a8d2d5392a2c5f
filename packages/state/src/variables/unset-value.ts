import type { RunId, ThreadId } from "@obelisk/core";
import { checkedClock, formatReference, ObeliskError } from "@obelisk/core";
import type { CallRecord, StateStore } from "../store-types.js";
import { hostEditRecord } from "./host-edit-record.js";
import { parseStoredReference, type ReferenceLimits } from "./parse-stored-reference.js";

/** The tool name recorded for removals made by {@link unsetValue}. */
export const UNSET_VALUE_TOOL = "obelisk.unset";

/** Options of {@link unsetValue} (`maxPathDepth`: the engine's, bounding the reference's depth; default 32). */
export interface UnsetValueOptions extends ReferenceLimits {
  /** Run id recorded with the removal (default `obelisk.unset`). */
  readonly runId?: RunId | undefined;
  /** Clock for the record's times (default `Date.now`). */
  readonly now?: (() => number) | undefined;
}

/** What {@link unsetValue} did. */
export interface UnsetValueResult {
  /** True when something was removed; false when the path held nothing (nothing changed). */
  readonly removed: boolean;
  /** The reference, canonical (`†state.approvals.refund`). */
  readonly reference: string;
  /** The variables removed (the one at the path, or those below a container only they created). */
  readonly variables: readonly string[];
  /** The removing call's id (`obelisk-unset$<n>`), when something was removed. */
  readonly callId?: string;
}

/**
 * Removes what a `†state` reference holds (`obelisk state unset`, `engine.unset`: how an approval is taken
 * back) with the same reference checks as {@link setValue}'s write, the way eviction removes variables: the
 * value leaves the state, the variable and those below it leave the variables (tombstones with reason
 * `unset`: reading them answers REF_EVICTED until written again), parents only they created go, an array
 * element becomes a hole (decision records 0010, 0013, 0026). Recorded like a set: a call `obelisk-unset$<n>`
 * (tool `obelisk.unset`) from the thread's counter, its record and `unset` write-log entries, all in one
 * change taken only when something is removed. A path that holds nothing (missing, already evicted or
 * removed, a thread the store does not hold) answers `removed: false` and changes nothing.
 *
 * Throws ObeliskError: REF_* / OUTPUT_PATH_READONLY (a malformed or non-`†state` reference), USAGE (`†state`
 * itself, a negative index, a path inside another variable's value, a store without `removeNumbered`),
 * OUTPUT_SCHEMA_VIOLATION (the thread's state schema needs the value). A refusal changes nothing.
 */
export async function unsetValue(
  store: StateStore,
  threadId: ThreadId,
  reference: string,
  options: UnsetValueOptions = {},
): Promise<UnsetValueResult> {
  const { path } = parseStoredReference(reference, true, options);
  const text = formatReference("state", path);
  if (path.length === 0) {
    throw new ObeliskError("USAGE", "state unset needs a path below †state (e.g. †state.approvals.refund)", {
      hint: "reset clears the whole thread",
    });
  }
  if (path.some((segment) => typeof segment === "number" && segment < 0))
    throw new ObeliskError("USAGE", `${text}: negative indices cannot be removed`);
  if (store.removeNumbered === undefined) {
    throw new ObeliskError("USAGE", `the ${store.backend} store cannot remove a value`, {
      hint: "it has no removeNumbered (the built-in memory and SQLite stores have it)",
    });
  }
  // its clock is checked as a store's is (decision 0061): a reading that is no time is USAGE, not a RangeError
  const date = new Date(checkedClock("unsetValue's now()", options.now ?? Date.now)()).toISOString();
  const record = (callNumber: number): CallRecord =>
    hostEditRecord({
      threadId,
      runId: options.runId ?? ("obelisk.unset" as RunId),
      callId: callIdOf(callNumber),
      tool: UNSET_VALUE_TOOL,
      date,
      reference: text,
      wrote: [],
    });
  const result = await store.removeNumbered(threadId, { path, reference: text }, record);
  if (!result.ok)
    throw new ObeliskError(result.error.code, result.error.message, { data: { reference: text } });
  const { removed, callNumber } = result;
  if (removed.length === 0 || callNumber === undefined)
    return { removed: false, reference: text, variables: [] };
  return { removed: true, reference: text, variables: removed, callId: callIdOf(callNumber) };
}

/** The call id of the `n`th automatic call of a thread made by {@link unsetValue}. */
const callIdOf = (callNumber: number): string => `obelisk-unset$${callNumber}`;
