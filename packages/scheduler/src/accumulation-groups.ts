import { OUTPUT_METHODS } from "@obelisk/core";
import type { CallSlot } from "./call-slot.js";
import { CommitGroup } from "./commit-group.js";
import type { CoreEffect } from "./decision-types.js";

/** Registers a call in the accumulation group of each target it may write with an accumulating method. */
export function joinGroups(groups: Map<string, CommitGroup>, slot: CallSlot): void {
  const outputPath = slot.call.outputPath;
  if (outputPath === undefined || !OUTPUT_METHODS[slot.call.outputMethod].accumulating) return;
  for (const alternative of outputPath.alternatives) {
    for (const target of alternative) {
      if (slot.groups.includes(target.text)) continue;
      slot.groups = [...slot.groups, target.text];
      let group = groups.get(target.text);
      if (group === undefined) {
        group = new CommitGroup();
        groups.set(target.text, group);
      }
      group.members.push(slot);
    }
  }
}

/** True when every earlier member of the groups the completed alternative writes has settled. */
export function mayCommit(groups: ReadonlyMap<string, CommitGroup>, slot: CallSlot): boolean {
  const alternative = slot.completedAlternative;
  const targets = alternative === undefined ? undefined : slot.call.outputPath?.alternatives[alternative];
  if (targets === undefined) return true;
  // The slot has not settled: every earlier member has exactly when the slot is the first that has not.
  for (const target of targets) {
    const group = groups.get(target.text);
    if (group !== undefined && group.firstUnsettled() !== slot) return false;
  }
  return true;
}

/**
 * An earlier writer of a path the completed alternative writes was cancelled (the run was aborted): the
 * result cannot be committed in plan order, so the call ends `cancelled` too and runs again on resume
 * after the earlier one (committing it would put its contribution first).
 */
export function cancelledBefore(
  groups: ReadonlyMap<string, CommitGroup>,
  slot: CallSlot,
): CoreEffect | undefined {
  const alternative = slot.completedAlternative;
  const targets = alternative === undefined ? undefined : slot.call.outputPath?.alternatives[alternative];
  for (const target of targets ?? []) {
    const group = groups.get(target.text);
    if (group === undefined || !group.cancelled) continue;
    for (const member of group.members) {
      if (member === slot) break;
      if (member.status === "cancelled") {
        const reason = `${slot.call.id} was not committed: ${member.call.id}, an earlier writer of ${target.text}, was cancelled`;
        return { type: "unsatisfied", index: slot.index, status: "cancelled", reason };
      }
    }
  }
  return undefined;
}

/**
 * The held accumulating writer a deadlocked run fails (see the core's `breakStall`): the first held one
 * that someone waits for, else the first held one; undefined when none is held.
 */
export function stallVictim(slots: readonly CallSlot[]): CallSlot | undefined {
  let victim: CallSlot | undefined;
  for (const slot of slots) {
    if (slot.phase !== "held") continue;
    victim ??= slot;
    if (slot.waiters !== undefined) {
      victim = slot;
      break;
    }
  }
  return victim;
}

/** The effect that fails a deadlocked run's victim `OUTPUT_WRITE_FAILED` (nothing written). */
export function stallFailure(victim: CallSlot): CoreEffect {
  return {
    type: "unsatisfied",
    index: victim.index,
    status: "failed",
    code: "OUTPUT_WRITE_FAILED",
    reason: `${victim.call.id} cannot be committed in plan order: an earlier writer of ${victim.groups.join(", ")} waits for it (a plan where an accumulating writer reads a target of a later writer of the same path deadlocks)`,
  };
}
