import type { WriterLink } from "@obelisk/compiler";
import type { Reference } from "@obelisk/core";
import type { CallStatus } from "@obelisk/state";
import type { CallSlot, Operand } from "./call-slot.js";
import type { CoreEffect } from "./decision-types.js";

/** True for a path under `†state.approvals.` (an approval gate, SPEC §7). */
export function isApprovalReference(reference: Reference): boolean {
  return reference.kind === "state" && reference.path.length >= 2 && reference.path[0] === "approvals";
}

/** True for the statuses of a writer that settled with its contribution made (or its other alternative taken). */
export function deliveredStatus(status: CallStatus | undefined): boolean {
  return status === "succeeded" || status === "satisfied";
}

/** True when one of an operand's in-plan writers (other than `readerId`) ended `waiting` for an approval. */
export function someWriterWaiting(
  writers: readonly WriterLink[],
  slotOf: (id: string) => CallSlot | undefined,
  readerId: string,
): boolean {
  for (let at = 0; at < writers.length; at++) {
    const callId = (writers[at] as WriterLink).callId;
    if (callId !== readerId && slotOf(callId)?.status === "waiting") return true;
  }
  return false;
}

/** Why one writer did not provide the path. */
function describeWriter(link: WriterLink, writer: CallSlot | undefined, reference: Reference): string {
  if (writer === undefined) return `${link.callId} was never added`;
  const status = writer.status;
  if (status === "succeeded" || status === "satisfied") {
    // without `_outputPath` (output under `†calls.<id>`) there is no alternative to name
    if (writer.written !== undefined && !link.alternatives.includes(writer.written)) {
      const taken = writer.call.outputPath?.alternatives[writer.written]
        ?.map((target) => target.text)
        .join(" && ");
      return `${link.callId} took alternative ${writer.written}${taken === undefined ? "" : ` (${taken})`}, not the one writing ${reference.text}`;
    }
    return `${link.callId} did not write ${reference.text}`;
  }
  return `upstream call ${link.callId} ${status === "failed" ? "failed" : `is ${status ?? "unsettled"}`}`;
}

/** Why one operand is missing for the call `readerId`. */
function describeOperand(
  operand: Operand,
  readerId: string,
  slotOf: (id: string) => CallSlot | undefined,
): string {
  if (operand.writers.length === 0) {
    const text = operand.reference.text;
    return isApprovalReference(operand.reference) ? `waits for approval ${text}` : `${text} does not exist`;
  }
  // When some writer did not deliver, those are the reason (the others' part is not the whole value).
  const undelivered = operand.writers.filter(
    (link) => link.callId !== readerId && !deliveredStatus(slotOf(link.callId)?.status),
  );
  return (undelivered.length > 0 ? undelivered : operand.writers)
    .map((link) => describeWriter(link, slotOf(link.callId), operand.reference))
    .join("; ");
}

/**
 * The effect for a call whose expression cannot be satisfied: `waiting` when an approval is missing or an
 * upstream writer is waiting, `failed` REF_UNRESOLVED when no in-plan call writes any missing operand,
 * `blocked` (with the upstream call or untaken alternative named) otherwise.
 */
export function unsatisfiedEffect(slot: CallSlot, slotOf: (id: string) => CallSlot | undefined): CoreEffect {
  const missing = slot.missing;
  const reason = missing.map((operand) => describeOperand(operand, slot.call.id, slotOf)).join("; ");
  const waiting = missing.some(
    (operand) =>
      isApprovalReference(operand.reference) || someWriterWaiting(operand.writers, slotOf, slot.call.id),
  );
  if (waiting) return { type: "unsatisfied", index: slot.index, status: "waiting", reason };
  if (missing.every((operand) => operand.writers.length === 0)) {
    return { type: "unsatisfied", index: slot.index, status: "failed", reason, code: "REF_UNRESOLVED" };
  }
  return { type: "unsatisfied", index: slot.index, status: "blocked", reason };
}
