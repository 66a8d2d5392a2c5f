import { alternativesAt, type CallSlot, operandsAt } from "./call-slot.js";

/**
 * Moves a slot's cursor to the next expression: past the alternatives of this one not tried (one was
 * taken, or the last one was tried, or the expression waits with an undecided writer).
 */
export function nextExpression(slot: CallSlot): void {
  const call = slot.call;
  if (call.operandShape === undefined) slot.at = slot.expression + 1;
  else {
    const alternatives = alternativesAt(call, slot.shapeAt);
    for (let alternative = slot.alternative; alternative < alternatives; alternative++)
      slot.at += operandsAt(call, slot.shapeAt, alternative);
    slot.shapeAt += 1 + alternatives;
  }
  slot.expression++;
  slot.alternative = 0;
  slot.operand = 0;
}
