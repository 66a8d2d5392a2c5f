import type { CompiledCall, WriterLink } from "@obelisk/compiler";
import type { Reference } from "@obelisk/core";
import { type CallSlot, expressionAt, NO_ITEMS } from "./call-slot.js";

/** What {@link waitedFor} reads of the run: the decision core's answers and the calls added. */
export interface WaitedForSources {
  /** True when an operand of the call at `index` holds a value for this run (the core's `present`). */
  present(index: number, reference: Reference): boolean;
  /** The compiled writers of an operand (the core's `writersOf`), for a batch slot. */
  writersOf(call: CompiledCall, reference: Reference): readonly WriterLink[];
  /** True when a call of this id was added to the run. */
  has(callId: string): boolean;
}

/**
 * The ids of the calls a ready call waited for, each once, in the order its references name them: the
 * in-plan writers of the operands it decided — for `a || b`, those of each alternative it tried, up to and
 * including the one it took (the first whose operands are all present, as the decision core chose it).
 * Read back from the slot and the writer links when `call-ready` is emitted to an observer: the core keeps
 * nothing for it, so a run nobody observes pays nothing.
 */
export function waitedFor(slot: CallSlot, sources: WaitedForSources): readonly string[] {
  let ids: Set<string> | undefined;
  const self = slot.call.id;
  for (let position = 0; position < slot.expressionCount; position++) {
    for (const operands of expressionAt(slot, position).alternatives) {
      let taken = true;
      for (const reference of operands) {
        const links = slot.writers?.get(reference) ?? sources.writersOf(slot.call, reference);
        for (const { callId } of links) {
          // a streamed writer never added (the stream closed first) was not waited for
          if (callId === self || ids?.has(callId) === true || !sources.has(callId)) continue;
          ids ??= new Set();
          ids.add(callId);
        }
        if (!sources.present(slot.index, reference)) {
          taken = false;
          break;
        }
      }
      if (taken) break;
    }
  }
  return ids === undefined ? NO_ITEMS : [...ids];
}
