import type { CompiledCall, ParamReference, WriterLink } from "@obelisk/compiler";
import type { InputExpression, Reference } from "@obelisk/core";
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
  /**
   * The call's input expressions (`||` alternatives of `&&` operands) when a parameter is a template;
   * undefined when every reference is one whole value: expression `i` is then `call.references[i]`'s
   * (see {@link expressionAt}), so the common slot holds no list of its own.
   */
  readonly expressions: readonly InputExpression[] | undefined;
  /** How many input expressions the call has. */
  readonly expressionCount: number;
  /**
   * Streaming runs only: each operand's writers as known when the call was added, extended by late claims.
   * Batch runs read the compiled writer lists instead (every call is known up front).
   */
  readonly writers: Map<Reference, WriterLink[]> | undefined;
  /** Cursor: expression, alternative and operand being decided. */
  expression: number;
  alternative: number;
  operand: number;
  /** The operands of the alternative the cursor is in, once read (cleared when the cursor leaves it). */
  operands: readonly Reference[] | undefined;
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

/** Every input expression of a call's parameters, in document order (an exact-size array). */
function expressionsOf(call: CompiledCall): InputExpression[] {
  const result: InputExpression[] = [];
  for (const { value } of call.references) {
    if (value.type === "reference") result.push(value.expression);
    else for (const part of value.parts) if (typeof part !== "string") result.push(part);
  }
  // A list grown by push keeps room for 17 items; slots keep theirs for the whole run.
  return result.slice();
}

/** The input expression at `position` of a slot (see {@link CallSlot.expressions}). */
export function expressionAt(slot: CallSlot, position: number): InputExpression {
  if (slot.expressions !== undefined) return slot.expressions[position] as InputExpression;
  return ((slot.call.references[position] as ParamReference).value as { expression: InputExpression })
    .expression;
}

/** The number of input expressions of a call, or -1 when a parameter is a template (see `expressionsOf`). */
function wholeReferences(call: CompiledCall): number {
  const references = call.references;
  for (let index = 0; index < references.length; index++)
    if ((references[index] as ParamReference).value.type !== "reference") return -1;
  return references.length;
}

/** The empty list slots share until they have a missing operand or a group (both are rare and short). */
export const NO_ITEMS: readonly never[] = Object.freeze([]);

/**
 * Builds the slot of a call. `streaming`: snapshot each operand's writers now (later calls may claim the
 * path and are added to the snapshot); batch runs look the compiled writers up when needed.
 */
export function createCallSlot(
  call: CompiledCall,
  index: number,
  writersOf: (call: CompiledCall, reference: Reference) => readonly WriterLink[],
  streaming = false,
): CallSlot {
  const whole = wholeReferences(call);
  const expressions = whole === -1 ? expressionsOf(call) : undefined;
  const expressionCount = expressions === undefined ? whole : expressions.length;
  let writers: Map<Reference, WriterLink[]> | undefined;
  if (streaming) {
    writers = new Map();
    for (const expression of expressions ?? expressionsOf(call))
      for (const operands of expression.alternatives)
        for (const reference of operands) writers.set(reference, [...writersOf(call, reference)]);
  }
  // Every field is set here (optional ones as undefined), so all slots share one shape and none grows later.
  return {
    index,
    call,
    expressions,
    expressionCount,
    writers,
    expression: 0,
    alternative: 0,
    operand: 0,
    operands: undefined,
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
