import type { InputExpression, Reference } from "@obelisk/core";
import { nearReferenceHint } from "./near-reference-hint.js";
import type { PlanBuilder } from "./plan-builder.js";

/**
 * Why an operand is unresolved (undefined when it resolves or cannot be judged); `near`: a did-you-mean
 * may help (not when the path was there and got evicted, nor for a call reading its own output);
 * `wrongName`: the operand names a value by a name it never has (`†calls.<id>` of a call with an
 * `_outputPath`, SPEC §3: "one value, one name"), reported even where another `||` alternative resolves.
 */
export type Verdict =
  | { readonly hint?: string; readonly near?: boolean; readonly wrongName?: boolean }
  | undefined;

/** The verdict on `†calls` whole: no value has that name. */
export const WHOLE_CALLS: Verdict = {
  hint: "†calls holds each call's output by its id: read †calls.<id> (a call without an _outputPath)",
  wrongName: true,
};

/** Judges one operand of a reader (a compiled call's entry, or a phantom's id): undefined when resolved. */
export type OperandJudge<R> = (
  builder: PlanBuilder,
  reader: R,
  operand: Reference,
  atAdd: boolean,
) => Verdict;

/**
 * The first unresolved operand of an expression none of whose `||` alternatives resolves (an alternative
 * fails at its first `&&` operand `judge` does not resolve), with its verdict; undefined when one resolves.
 */
export function firstUnresolved<R>(
  builder: PlanBuilder,
  reader: R,
  expression: InputExpression,
  judge: OperandJudge<R>,
  atAdd: boolean,
): { readonly operand: Reference; readonly verdict: Verdict } | undefined {
  let first: { readonly operand: Reference; readonly verdict: Verdict } | undefined;
  for (const gate of expression.alternatives) {
    let resolvable = true;
    for (const operand of gate) {
      const verdict = judge(builder, reader, operand, atAdd);
      if (verdict === undefined) continue;
      first ??= { operand, verdict };
      resolvable = false;
      break;
    }
    if (resolvable) return undefined;
  }
  return first;
}

/** The hint of a REF_UNRESOLVED: the verdict's, with the did-you-mean (see near-reference-hint.ts) first. */
export function unresolvedHint(
  builder: PlanBuilder,
  reference: Reference,
  verdict: Verdict,
  readerId: string,
): string | undefined {
  const general = verdict?.hint;
  const near = verdict?.near === true ? nearReferenceHint(builder, reference, readerId) : undefined;
  if (near === undefined) return general;
  if (near.replaces || general === undefined) return near.text;
  return `${near.text} (${general})`;
}
