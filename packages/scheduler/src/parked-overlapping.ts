import type { CompiledCall } from "@obelisk/compiler";
import type { Reference } from "@obelisk/core";
import type { CallSlot } from "./call-slot.js";
import { forEachTarget } from "./for-each-target.js";
import type { PathTrie } from "./path-trie.js";

/** Where a parked slot is filed (the operand it waits on) and when it parked. */
export interface Parking {
  readonly reference: Reference;
  readonly order: number;
}

/**
 * The parked slots whose operand a target of `calls` overlaps, in the order they parked. They are taken
 * out of the index while they are looked at (the caller files back those no new call claims): a slot is
 * offered once however many targets overlap it, and leaving costs no search of its node's list.
 */
export function parkedOverlapping(
  calls: readonly CompiledCall[],
  parkedByPath: PathTrie<CallSlot>,
  parkedOn: ReadonlyMap<CallSlot, Parking>,
): CallSlot[] {
  const candidates = new Set<CallSlot>();
  for (const call of calls)
    forEachTarget(call, (kind, path) =>
      parkedByPath.sweepOverlapping(kind, path, (slot) => {
        candidates.add(slot);
        return false;
      }),
    );
  if (candidates.size === 0) return [];
  const parking = (slot: CallSlot) => parkedOn.get(slot) as Parking;
  return [...candidates].sort((a, b) => parking(a).order - parking(b).order);
}
