import { BUILT_IN_KINDS, parameterExpressions } from "@obelisk/core";
import type { CompileContext, ParamReference } from "./compiled-plan.js";

const BUILT_IN = new Set(BUILT_IN_KINDS.map((info) => info.kind));

/** True for a kind every parameter may read (`input`, `state`, `calls`): `mayRead` is asked only about host kinds. */
export function isBuiltInKind(kind: string): boolean {
  return BUILT_IN.has(kind);
}

/**
 * True when `reference`, a parameter string of a call of `tool` (undefined: not compiled), reads a host kind
 * that its parameter may not read (`context.mayRead`): then it is not judged against the known context, and
 * no hint names what that kind holds (decision 0082). False at once when the host scopes no kind.
 */
export function readsUnreadableKind(
  context: CompileContext,
  tool: string | undefined,
  reference: ParamReference,
): boolean {
  const mayRead = context.mayRead;
  if (mayRead === undefined) return false;
  const parameter = String(reference.location[0]);
  for (const expression of parameterExpressions(reference.value))
    for (const operands of expression.alternatives)
      for (const { kind } of operands)
        if (!isBuiltInKind(kind) && !mayRead(kind, tool, parameter)) return true;
  return false;
}
