import type { CompiledCall, WriterLink } from "@obelisk/compiler";
import type { InputExpression, Reference } from "@obelisk/core";
import type { CallStatus } from "@obelisk/state";

/** One operand of an input expression with its (mutable, for streaming claims) in-plan writers. */
export interface Operand {
  /** The reference. */
  readonly reference: Reference;
  /** In-plan writers of the referenced path. */
  readonly writers: WriterLink[];
}

/** Where a call is in its life inside the decision core. */
export type SlotPhase = "evaluating" | "parked" | "dispatched" | "held" | "committing" | "settled";

/** The decision core's record of one call. */
export interface CallSlot {
  /** Position in plan order. */
  readonly index: number;
  /** The compiled call. */
  readonly call: CompiledCall;
  /** Expressions → `||` alternatives → `&&` operands. */
  readonly expressions: readonly (readonly (readonly Operand[])[])[];
  /** Cursor: expression, alternative and operand being decided. */
  expression: number;
  alternative: number;
  operand: number;
  /** Writers of the current operand not yet settled (valid when `subscribed`). */
  pending: number;
  /** True once the current operand's unsettled writers were subscribed to. */
  subscribed: boolean;
  /** Lifecycle phase. */
  phase: SlotPhase;
  /** Operands found missing while deciding the current expression (for reasons). */
  missing: Operand[];
  /** Final status once settled. */
  status?: CallStatus;
  /** Alternative written once settled, if any. */
  written?: number;
  /** The alternative of a completed result waiting for its turn (accumulating writers). */
  completedAlternative?: number;
  /** Accumulation groups this call belongs to (target texts). */
  groups: string[];
}

/** Every input expression of a call's parameters, in document order. */
export function expressionsOf(call: CompiledCall): InputExpression[] {
  const result: InputExpression[] = [];
  for (const reference of call.references) {
    const value = reference.value;
    if (value.type === "reference") result.push(value.expression);
    else for (const part of value.parts) if (typeof part !== "string") result.push(part);
  }
  return result;
}

/** Builds the slot of a call with its operands' writers. */
export function createCallSlot(
  call: CompiledCall,
  index: number,
  writersOf: (call: CompiledCall, reference: Reference) => readonly WriterLink[],
): CallSlot {
  const expressions = expressionsOf(call).map((expression) =>
    expression.alternatives.map((operands) =>
      operands.map((reference) => ({ reference, writers: [...writersOf(call, reference)] })),
    ),
  );
  return {
    index,
    call,
    expressions,
    expression: 0,
    alternative: 0,
    operand: 0,
    pending: 0,
    subscribed: false,
    phase: "evaluating",
    missing: [],
    groups: [],
  };
}
