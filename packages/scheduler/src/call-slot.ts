import type { CallOperand, CompiledCall, WriterLink } from "@obelisk/compiler";
import type { Reference } from "@obelisk/core";
import type { CallStatus } from "@obelisk/state";
import type { CoreEffect } from "./decision-types.js";

/** A missing operand with its in-plan writers (kept for the reasons of blocked / waiting calls). */
export interface Operand {
  /** The reference. */
  readonly reference: Reference;
  /** In-plan writers of the referenced path. */
  readonly writers: readonly WriterLink[];
}

/** Where a call is in its life inside the decision core. */
export type SlotPhase = "evaluating" | "parked" | "dispatched" | "held" | "committing" | "settled";

/** The decision core's record of one call (one per call for the whole run: kept small). */
export interface CallSlot {
  /** Position in plan order. */
  readonly index: number;
  /** The compiled call. */
  readonly call: CompiledCall;
  /** How many input expressions the call has. */
  readonly expressionCount: number;
  /**
   * Streaming runs only: each operand's writers as known when the call was added, extended by late claims,
   * by reference text. Batch runs read the compiled operands' links instead (every call is known up front).
   */
  readonly writers: Map<string, WriterLink[]> | undefined;
  /** Cursor: expression, alternative and operand being decided. */
  expression: number;
  alternative: number;
  operand: number;
  /** Where the cursor's alternative starts in `call.operands` (the operand decided is `at + operand`). */
  at: number;
  /** Where the cursor's expression starts in `call.operandShape` (its number of alternatives). */
  shapeAt: number;
  /** The in-plan writers of the operand the cursor is on, once looked up (cleared when the cursor moves). */
  links: readonly WriterLink[] | undefined;
  /**
   * The slot of the one writer in {@link links} when there is exactly one and it was added, found when
   * subscribing: waking up decides presence without looking the writer up by id again.
   */
  writer: CallSlot | undefined;
  /** Writers of the current operand not yet settled (valid when `subscribed`). */
  pending: number;
  /** True once the current operand's unsettled writers were subscribed to. */
  subscribed: boolean;
  /** Lifecycle phase. */
  phase: SlotPhase;
  /** Operands found missing while deciding the current expression (for reasons). */
  missing: readonly Operand[];
  /**
   * A `waiting` verdict of an earlier expression, held while the call's other expressions are decided: a
   * blocked or failed one wins (approving cannot help), so the outcome does not depend on parameter order.
   */
  held: CoreEffect | undefined;
  /** Final status once settled. */
  status: CallStatus | undefined;
  /** Alternative written once settled, if any. */
  written: number | undefined;
  /** The alternative of a completed result waiting for its turn (accumulating writers). */
  completedAlternative: number | undefined;
  /** Accumulation groups this call belongs to (target texts). */
  groups: readonly string[];
  /** Slots waiting for this call to settle (in the order they subscribed); cleared when it settles. */
  waiters: CallSlot[] | undefined;
}

/** The number of input expressions of a call (see `CompiledCall.operandShape`). */
function expressionCountOf(call: CompiledCall): number {
  const shape = call.operandShape;
  if (shape === undefined) return call.operands.length;
  let count = 0;
  for (let at = 0; at < shape.length; at += 1 + (shape[at] as number)) count++;
  return count;
}

/** How many alternatives the expression at `shapeAt` of a call's shape has. */
export function alternativesAt(call: CompiledCall, shapeAt: number): number {
  const shape = call.operandShape;
  return shape === undefined ? 1 : (shape[shapeAt] as number);
}

/** How many operands alternative `alternative` of the expression at `shapeAt` has. */
export function operandsAt(call: CompiledCall, shapeAt: number, alternative: number): number {
  const shape = call.operandShape;
  return shape === undefined ? 1 : (shape[shapeAt + 1 + alternative] as number);
}

/**
 * Calls `visit` with each operand of a call and where it is: its position in `call.operands`, its
 * expression, alternative and place in the alternative.
 */
export function forEachOperand(
  call: CompiledCall,
  visit: (operand: CallOperand, expression: number, alternative: number, place: number) => void,
): void {
  const operands = call.operands;
  let position = 0;
  let shapeAt = 0;
  for (let expression = 0; position < operands.length; expression++) {
    const alternatives = alternativesAt(call, shapeAt);
    for (let alternative = 0; alternative < alternatives; alternative++) {
      const count = operandsAt(call, shapeAt, alternative);
      for (let place = 0; place < count; place++)
        visit(operands[position++] as CallOperand, expression, alternative, place);
    }
    shapeAt += call.operandShape === undefined ? 0 : 1 + alternatives;
  }
}

/** The empty list slots share until they have a missing operand or a group (both are rare and short). */
export const NO_ITEMS: readonly never[] = Object.freeze([]);

/**
 * Builds the slot of a call. `streaming`: snapshot each operand's writers now (later calls may claim the
 * path and are added to the snapshot); batch runs read the compiled operands' links when needed.
 */
export function createCallSlot(
  call: CompiledCall,
  index: number,
  linksOf: (call: CompiledCall, operand: CallOperand) => readonly WriterLink[],
  streaming = false,
): CallSlot {
  let writers: Map<string, WriterLink[]> | undefined;
  if (streaming) {
    writers = new Map();
    for (const operand of call.operands)
      if (!writers.has(operand.reference.text))
        writers.set(operand.reference.text, [...linksOf(call, operand)]);
  }
  // Every field is set here (optional ones as undefined), so all slots share one shape and none grows later.
  return {
    index,
    call,
    expressionCount: expressionCountOf(call),
    writers,
    expression: 0,
    alternative: 0,
    operand: 0,
    at: 0,
    shapeAt: 0,
    links: undefined,
    writer: undefined,
    pending: 0,
    subscribed: false,
    phase: "evaluating",
    missing: NO_ITEMS,
    held: undefined,
    status: undefined,
    written: undefined,
    completedAlternative: undefined,
    groups: NO_ITEMS,
    waiters: undefined,
  };
}
