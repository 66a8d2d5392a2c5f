import type { Diagnostic, InputExpression, Reference } from "@obelisk/core";
import { getAtPath } from "@obelisk/core";
import type { CallEntry } from "./builder-types.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import type { PlanBuilder } from "./plan-builder.js";
import { schemaDeclaresPath } from "./schema-types.js";

/** Why an operand is unresolved (undefined when it resolves or cannot be judged). */
type Verdict = { readonly hint?: string } | undefined;

function judgeCalls(builder: PlanBuilder, self: string, reference: Reference): Verdict {
  const id = reference.path[0];
  if (typeof id !== "string") return undefined;
  const target = builder.entries.get(id);
  if (target !== undefined && id !== self && target.call.outputPath !== undefined) {
    return {
      hint: `call "${id}" has an _outputPath: read ${target.call.outputPath.alternatives
        .flat()
        .map((t) => t.text)
        .join(" or ")} instead`,
    };
  }
  if (target !== undefined || builder.phantomIds.has(id)) return undefined;
  const stored = builder.settings.context.callOutputs;
  if (stored === undefined || stored.has(id)) return undefined;
  return { hint: "no call of this plan has that id, and the thread has no stored output for it" };
}

function judgeContext(builder: PlanBuilder, reference: Reference): Verdict {
  const { context, planInputSchema } = builder.settings;
  const path = reference.path;
  switch (reference.kind) {
    case "state":
      if (path[0] === "approvals" || context.state === undefined) return undefined;
      return getAtPath(context.state, path).found
        ? undefined
        : { hint: "the thread's state has no value there and no call of this plan writes it" };
    case "input": {
      if (context.input !== undefined)
        return getAtPath(context.input, path).found
          ? undefined
          : { hint: "the run's input has no value there" };
      for (const schema of [planInputSchema, context.inputSchema]) {
        if (schema !== undefined && !schemaDeclaresPath(schema, path))
          return { hint: "the input schema does not declare this path" };
      }
      return undefined;
    }
    default: {
      const value = context.extraKinds?.[reference.kind];
      if (value === undefined) return undefined;
      return getAtPath(value, path).found
        ? undefined
        : { hint: `the ${reference.kind} context has no value there` };
    }
  }
}

/** Judges one operand: resolved by an in-plan writer, or by the known context. */
export function judgeOperand(builder: PlanBuilder, entry: CallEntry, reference: Reference): Verdict {
  if ((entry.writers.get(reference.text)?.length ?? 0) > 0) return undefined;
  if (builder.phantomTargets.hasOverlap(reference.kind, reference.path)) return undefined;
  if (reference.kind === "calls") return judgeCalls(builder, entry.call.id, reference);
  return judgeContext(builder, reference);
}

function expressionsOf(value: EntryReference["value"]): InputExpression[] {
  if (value.type === "reference") return [value.expression];
  return value.parts.filter((part): part is InputExpression => typeof part !== "string");
}
type EntryReference = CallEntry["call"]["references"][number];

/**
 * REF_UNRESOLVED for every expression none of whose `||` alternatives can resolve (an alternative
 * fails when any of its `&&` operands has no in-plan writer and the known context lacks it).
 */
export function unresolvedReferences(builder: PlanBuilder, entry: CallEntry): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const reference of entry.call.references) {
    for (const expression of expressionsOf(reference.value)) {
      let first: { reference: Reference; hint?: string } | undefined;
      const resolvable = expression.alternatives.some((gate) =>
        gate.every((operand) => {
          const verdict = judgeOperand(builder, entry, operand);
          if (verdict !== undefined && first === undefined) first = { reference: operand, ...verdict };
          return verdict === undefined;
        }),
      );
      if (resolvable || first === undefined) continue;
      const message = `nothing writes ${first.reference.text} and the known context lacks it`;
      out.push(
        makeDiagnostic("REF_UNRESOLVED", message, reference.pointer, {
          callId: entry.call.id,
          hint: first.hint,
        }),
      );
    }
  }
  return out;
}
