import { formatReference, getAtPath, ObeliskError } from "@obelisk/core";
import type { CallRecord, RemovalResult, RemovalTarget } from "../store-types.js";
import { type EvictionRequest, planEvictionBatch } from "./plan-eviction.js";
import type { ThreadChange, ThreadModel } from "./thread-model.js";

/** The reason of the tombstones a removal leaves (`REF_EVICTED` then says `unset`). */
export const REMOVAL_REASON = "unset";

/** A removal to persist: the change (the call's record included) and the variables it removes. */
export interface PlannedRemoval {
  readonly change: ThreadChange;
  readonly removed: readonly string[];
}

/** The answer of a removal that changes nothing: no variable there. */
const NOTHING: RemovalResult = Object.freeze({ ok: true, removed: Object.freeze([]) as readonly string[] });

/**
 * Plans the removal of what `target` holds (`removeNumbered`, `unsetValue`) with the eviction batch planner,
 * so it removes the way eviction does (decision records 0010, 0013): the variable at the path, or — at a
 * container that only writes below it created (no variable at or above it) — every variable below it; each
 * takes the variables below it, leaves a tombstone (reason `unset`) and an `unset` entry logged as the
 * removing call (`record`, which the change carries), an array element becomes a hole, parents left holding
 * nothing go, and variables above get fresh facts. Answers {@link NOTHING} when no variable is there (a
 * missing path, a hole: `isTombstoned`); `OUTPUT_SCHEMA_VIOLATION` when the state left would break the
 * thread's schema while the state before did not (eviction keeps such variables quietly; a removal someone
 * asked for is refused instead). Throws USAGE for a path inside another variable's value that is no
 * variable itself: it is not removed the eviction way (nothing to tombstone), and the variable holding it
 * can be written again without it.
 */
export function planRemoval(
  model: ThreadModel,
  target: RemovalTarget,
  record: CallRecord,
  nowMs: number,
  isTombstoned: (reference: string) => boolean,
): PlannedRemoval | RemovalResult {
  const references = removedVariables(model, target, isTombstoned);
  if (references.length === 0) return NOTHING;
  const requests = references.map((reference): EvictionRequest => ({ reference, reason: REMOVAL_REASON }));
  const change = planEvictionBatch(model, requests, nowMs, record);
  const validator = model.validator;
  if (validator !== undefined && change.state !== model.state) {
    const location = validator.violation(change.state);
    if (location !== undefined && validator.violation(model.state) === undefined) {
      const at = formatReference("state", location);
      return {
        ok: false,
        error: {
          code: "OUTPUT_SCHEMA_VIOLATION",
          message: `removing ${target.reference} would leave a state the thread's state schema refuses (at ${at})`,
          reference: target.reference,
        },
      };
    }
  }
  const removed = change.evictions.map((eviction) => eviction.entry.meta.reference);
  return { change: { ...change, record }, removed };
}

/** The variables a removal of `target` asks the eviction planner for (see {@link planRemoval}). */
function removedVariables(
  model: ThreadModel,
  target: RemovalTarget,
  isTombstoned: (reference: string) => boolean,
): readonly string[] {
  if (model.variables.get(target.reference)?.meta.scope === "state") return [target.reference];
  const found = getAtPath(model.state, target.path);
  if (!found.found) return [];
  const holder = model.trie.ancestors(target.path).at(-1);
  if (holder === undefined) return model.trie.descendants(target.path);
  // an evicted element of a variable's array is a hole: nothing is there any more
  if (found.value === null && isTombstoned(target.reference)) return [];
  throw new ObeliskError(
    "USAGE",
    `${target.reference} is not a variable of its own: it is part of the value of ${holder}`,
    {
      hint: `remove ${holder} with its whole value, or set ${holder} again without this part`,
      data: { reference: target.reference, variable: holder },
    },
  );
}
