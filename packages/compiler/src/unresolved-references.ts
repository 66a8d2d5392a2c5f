import type { Diagnostic, InputExpression, Reference } from "@obelisk/core";
import { pathsOverlap } from "@obelisk/core";
import type { CallEntry, PhantomCall } from "./builder-types.js";
import { judgeCalls, judgeContext, namedCallWithOutputPath } from "./context-verdict.js";
import { excludedByWriters } from "./excluded-by-writers.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import type { PlanBuilder } from "./plan-builder.js";
import { firstUnresolved, unresolvedHint, type Verdict, WHOLE_CALLS } from "./reference-verdict.js";
import { readsUnreadableKind } from "./unreadable-reference.js";

/**
 * REF_UNRESOLVED for the references of a call that could not be compiled (an unknown tool, a bad or
 * repeated `_id`; batch only), so they are reported with its other errors, not after its fix. An operand
 * is resolved by any writer of the plan (compiled or not, its own targets included: no type checks and no
 * self-read verdict without a schema-checked call) or by the known context.
 */
export function phantomUnresolved(builder: PlanBuilder, phantom: PhantomCall, out: Diagnostic[]): void {
  const readerId = phantom.id ?? "";
  const context = builder.settings.context;
  for (const reference of phantom.references) {
    if (readsUnreadableKind(context, undefined, reference)) continue;
    const value = reference.value;
    const expressions =
      value.type === "reference"
        ? [value.expression]
        : value.parts.filter((part): part is InputExpression => typeof part !== "string");
    for (const expression of expressions) {
      const failed = firstUnresolved(builder, readerId, expression, judgePhantomOperand, false);
      if (failed === undefined) continue;
      const message = `nothing writes ${failed.operand.text} and the known context lacks it`;
      out.push(
        makeDiagnostic("REF_UNRESOLVED", message, reference.pointer, {
          callId: phantom.id,
          hint: unresolvedHint(builder, failed.operand, failed.verdict, readerId),
        }),
      );
    }
  }
}

/** {@link OperandJudge} of a phantom call's operand: any writer of the plan resolves it (`atAdd`: batch only). */
function judgePhantomOperand(
  builder: PlanBuilder,
  readerId: string,
  reference: Reference,
  _atAdd: boolean,
): Verdict {
  if (reference.kind === "calls" && reference.path.length === 0) return WHOLE_CALLS;
  if (builder.writesOverlapping(reference.kind, reference.path)) return undefined;
  if (reference.kind === "calls") return judgeCalls(builder, readerId, reference);
  return judgeContext(builder, reference);
}

/**
 * Whether a call added later may still write into `kind` (a writable kind, or one the engine fills from
 * the plan's calls, like `†calls`): then a path of it nothing writes yet is not unresolved before close.
 */
function writableLater(builder: PlanBuilder, kind: string): boolean {
  const info = builder.settings.kinds.get(kind);
  return info === undefined || info.writable || info.engineManaged;
}

/**
 * Judges one operand: resolved by an in-plan writer, or by the known context. `atAdd` (streaming, the call
 * just arrived): an operand of a kind a later call may still write is not judged (it waits for a writer).
 */
export function judgeOperand(
  builder: PlanBuilder,
  entry: CallEntry,
  reference: Reference,
  atAdd = false,
): Verdict {
  // `†calls` whole: no value has that name (the store keeps each output by its call; run, validate and
  // `get` would each have to invent one)
  if (reference.kind === "calls" && reference.path.length === 0) return WHOLE_CALLS;
  const links = entry.writers.get(reference.text);
  if (links !== undefined && links.length > 0)
    return atAdd || !builder.typedWriters ? undefined : excludedByWriters(builder, links, reference);
  if (atAdd && writableLater(builder, reference.kind) && !readsOwnOutput(entry, reference)) return undefined;
  if (builder.phantomTargets.hasOverlap(reference.kind, reference.path)) return undefined;
  if (reference.kind === "calls") return judgeCalls(builder, entry.call.id, reference);
  const verdict = judgeContext(builder, reference);
  return verdict?.near === true ? (selfReadVerdict(entry, reference) ?? verdict) : verdict;
}

/**
 * True when `reference` is `†calls.<id>` (or below) of the reading call itself: no later call can make it
 * (ids are unique, and a call never reads its own output of this run), so a stream judges it at add as
 * batch does (decision 0114).
 */
function readsOwnOutput(entry: CallEntry, reference: Reference): boolean {
  return reference.kind === "calls" && reference.path[0] === entry.call.id;
}

/**
 * The verdict on a read of a path the reading call itself writes (`{ "query": "†state.q", "_outputPath":
 * "†state.q" }`) that the known context lacks: "no call of this plan writes it" is untrue there; the call
 * reads the value from before the run (SPEC §6), so it needs an earlier writer or the thread to hold it.
 */
function selfReadVerdict(entry: CallEntry, reference: Reference): Verdict {
  const outputPath = entry.call.outputPath;
  if (outputPath === undefined) return undefined;
  for (const targets of outputPath.alternatives)
    for (const target of targets)
      if (target.kind === reference.kind && pathsOverlap(target.path, reference.path))
        return {
          hint: `this call writes ${target.text} itself, and a call reads its own output path's value from before the run: it needs an earlier writer (a previous run) or the thread to hold it`,
        };
  return undefined;
}

/**
 * REF_UNRESOLVED for every expression none of whose `||` alternatives can resolve (an alternative
 * fails when any of its `&&` operands has no in-plan writer and the known context lacks it). `atAdd`:
 * only the operands no later call can write are judged (see `judgeOperand`).
 */
export function unresolvedReferences(builder: PlanBuilder, entry: CallEntry, atAdd = false): Diagnostic[] {
  let out: Diagnostic[] | undefined;
  const context = builder.settings.context;
  for (const reference of entry.call.references) {
    if (readsUnreadableKind(context, entry.tool.name, reference)) continue;
    const value = reference.value;
    if (value.type === "reference")
      out = checkExpression(builder, entry, reference, value.expression, out, atAdd);
    else
      for (const part of value.parts)
        if (typeof part !== "string") out = checkExpression(builder, entry, reference, part, out, atAdd);
  }
  return out ?? [];
}

/** Adds the REF_UNRESOLVED of one expression, if any, to `out` (created on the first one). */
function checkExpression(
  builder: PlanBuilder,
  entry: CallEntry,
  reference: EntryReference,
  expression: InputExpression,
  out: Diagnostic[] | undefined,
  atAdd: boolean,
): Diagnostic[] | undefined {
  const misnamed = misnamedOperand(builder, entry, expression, atAdd);
  if (misnamed !== undefined)
    return pushUnresolved(builder, entry, reference, misnamed.operand, misnamed.verdict, out);
  const failed = firstUnresolved(builder, entry, expression, judgeOperand, atAdd);
  if (failed === undefined) return out;
  return pushUnresolved(builder, entry, reference, failed.operand, failed.verdict, out);
}

/**
 * The first `†calls.<id>` operand of a fallback or gate that names a value by a name it never has (see
 * `wrongName`): taking the next alternative would hide the model's mistake behind a default value. Only
 * `calls` operands without an in-plan writer are judged, so other expressions cost nothing more.
 */
function misnamedOperand(
  builder: PlanBuilder,
  entry: CallEntry,
  expression: InputExpression,
  atAdd: boolean,
): { readonly operand: Reference; readonly verdict: Verdict } | undefined {
  if (expression.alternatives.length < 2) return undefined;
  for (const gate of expression.alternatives)
    for (const operand of gate) {
      if (operand.kind !== "calls") continue;
      const verdict = atAdd ? misnamedAtAdd(builder, entry, operand) : judgeOperand(builder, entry, operand);
      if (verdict?.wrongName === true) return { operand, verdict };
    }
  return undefined;
}

/**
 * While streaming, when the call arrives: a `†calls.<id>` operand of a call already added with an
 * `_outputPath` (no later call can change that: ids are unique). Other `calls` operands wait for close.
 */
function misnamedAtAdd(builder: PlanBuilder, entry: CallEntry, operand: Reference): Verdict {
  if (operand.path.length === 0) return WHOLE_CALLS;
  const id = operand.path[0];
  if (typeof id !== "string" || (entry.writers.get(operand.text)?.length ?? 0) > 0) return undefined;
  return namedCallWithOutputPath(builder, entry.call.id, id);
}

/** Adds a REF_UNRESOLVED for `operand` of `reference` to `out` (created on the first one). */
function pushUnresolved(
  builder: PlanBuilder,
  entry: CallEntry,
  reference: EntryReference,
  operand: Reference,
  verdict: Verdict,
  out: Diagnostic[] | undefined,
): Diagnostic[] {
  const message = `nothing writes ${operand.text} and the known context lacks it`;
  const diagnostic = makeDiagnostic("REF_UNRESOLVED", message, reference.pointer, {
    callId: entry.call.id,
    hint: unresolvedHint(builder, operand, verdict, entry.call.id),
  });
  if (out === undefined) return [diagnostic];
  out.push(diagnostic);
  return out;
}

type EntryReference = CallEntry["call"]["references"][number];
