import type { WriterLink } from "@obelisk/compiler";
import type { CallSlot } from "./call-slot.js";
import { deliveredStatus } from "./unsatisfied-effect.js";

/**
 * The slot of a link's writer: at the link's position when the call there is the writer (the common
 * case: no lookup by id), else by id (a link the scheduler made, or calls added in another order).
 */
export function writerOf(
  slots: readonly CallSlot[],
  byId: ReadonlyMap<string, CallSlot>,
  link: WriterLink,
): CallSlot | undefined {
  const slot = slots[link.position];
  return slot !== undefined && slot.call.id === link.callId ? slot : byId.get(link.callId);
}

/** Some writer wrote the path and every other settled without failing (see the core's `decidedPresent`). */
export function writersDelivered(
  reader: CallSlot,
  writers: readonly WriterLink[],
  slots: readonly CallSlot[],
  byId: ReadonlyMap<string, CallSlot>,
): boolean {
  const single = reader.writer;
  if (single !== undefined && writers === reader.links && writers.length === 1) {
    // the one writer, found when the reader subscribed (the common operand: no lookup by id)
    if (single === reader) return false;
    if (!deliveredStatus(single.status)) return false;
    return single.written === undefined || (writers[0] as WriterLink).alternatives.includes(single.written);
  }
  let wrote = false;
  for (let at = 0; at < writers.length; at++) {
    const link = writers[at] as WriterLink;
    const writer = writerOf(slots, byId, link);
    // the reader's own write is read from before the run; a writer never added (closed stream) is absent
    if (writer === undefined || writer === reader) continue;
    if (!deliveredStatus(writer.status)) return false;
    if (writer.written === undefined || link.alternatives.includes(writer.written)) wrote = true;
  }
  return wrote;
}
