import type { InputExpression, JsonValue, Reference } from "@obelisk/core";
import { getAtPath, valueAtPath } from "@obelisk/core";
import type { CallEntry } from "./builder-types.js";
import type { PlanBuilder } from "./plan-builder.js";
import { jsonTypeOf, schemaAtPath, schemaTypes } from "./schema-types.js";
import { storedCallOutput } from "./stored-call-output.js";
import { judgeOperand } from "./unresolved-references.js";
import { type Types, union, type WrittenTypesCache, writtenTypes } from "./written-types.js";

/** `†state` itself: the whole state is always an object. */
const OBJECT: Set<string> = new Set(["object"]);

/** Types of an operand: from its in-plan writers, else from the context's schemas or given input. */
function operandTypes(
  builder: PlanBuilder,
  entry: CallEntry,
  reference: Reference,
  cache: WrittenTypesCache,
): Types {
  if (reference.path.length === 0 && reference.kind === "state") return OBJECT;
  const links = entry.writers.get(reference.text);
  if (links !== undefined && links.length > 0) return writtenTypes(builder, links, reference, cache);
  const { context, planInputSchema } = builder.settings;
  const known = contextValue(builder, entry, reference);
  if (known !== undefined) return new Set([jsonTypeOf(known.value)]);
  if (reference.kind === "input") {
    if (context.input !== undefined) {
      const found = getAtPath(context.input, reference.path);
      return found.found ? new Set([jsonTypeOf(found.value)]) : undefined;
    }
    const schema = planInputSchema ?? context.inputSchema;
    return schema === undefined
      ? undefined
      : schemaTypes(schemaAtPath(schema, reference.path), schema, builder.declaredTypes);
  }
  if (reference.kind === "state" && context.stateSchema !== undefined) {
    return schemaTypes(
      schemaAtPath(context.stateSchema, reference.path),
      context.stateSchema,
      builder.declaredTypes,
    );
  }
  return undefined;
}

/**
 * The value of an operand that no call of the plan writes, when the known context holds it (the run's
 * input, the thread's state, a host kind's value, a stored call output), else undefined.
 */
export function contextValue(
  builder: PlanBuilder,
  entry: CallEntry,
  reference: Reference,
): { readonly value: JsonValue } | undefined {
  const context = builder.settings.context;
  const kind = reference.kind;
  if (kind === "calls") return storedValue(builder, entry, reference);
  const root =
    kind === "input" ? context.input : kind === "state" ? context.state : context.extraKinds?.[kind];
  if (root === undefined || builder.phantomTargets.hasOverlap(kind, reference.path)) return undefined;
  const found = getAtPath(root, reference.path);
  return found.found ? { value: found.value } : undefined;
}

/**
 * The value at `†calls.<id>…` in the output the thread stores for `<id>`, when no other call of the plan
 * (compiled or not) has that id — one with an `_outputPath` is REF_UNRESOLVED instead — and the host gave
 * the value (`storedCallOutput`). A call's own id reads its stored output, as at run time.
 */
function storedValue(
  builder: PlanBuilder,
  entry: CallEntry,
  reference: Reference,
): { readonly value: JsonValue } | undefined {
  const id = reference.path[0];
  if (typeof id !== "string" || builder.phantomIds.has(id)) return undefined;
  if (id !== entry.call.id && builder.entries.has(id)) return undefined;
  const stored = storedCallOutput(builder, id);
  if (stored === undefined || builder.phantomTargets.hasOverlap("calls", reference.path)) return undefined;
  const value = valueAtPath(stored.value, reference.path, 1);
  return value === undefined ? undefined : { value };
}

/** True when every operand of a `&&` alternative certainly exists before the run (no writer in the plan). */
function gateExists(builder: PlanBuilder, entry: CallEntry, gate: readonly Reference[]): boolean {
  for (const operand of gate) {
    if ((entry.writers.get(operand.text)?.length ?? 0) > 0) return false;
    if (contextValue(builder, entry, operand) === undefined) return false;
  }
  return true;
}

/** True when some operand of a `&&` alternative certainly does not exist (REF_UNRESOLVED's own verdict). */
function gateMissing(builder: PlanBuilder, entry: CallEntry, gate: readonly Reference[], atAdd: boolean) {
  for (const operand of gate) if (judgeOperand(builder, entry, operand, atAdd) !== undefined) return true;
  return false;
}

/**
 * Types an expression evaluates to: the last operand of any alternative, or of the first one whose
 * operands certainly exist (a fallback takes the first that exists: later ones cannot be its value). An
 * alternative with an operand that certainly does not exist is skipped (the fallback never takes it);
 * `atAdd` (streaming, the call just arrived): one a later call may still write is not skipped.
 */
export function expressionTypes(
  builder: PlanBuilder,
  entry: CallEntry,
  expression: InputExpression,
  cache: WrittenTypesCache,
  atAdd: boolean,
): Types {
  const alternatives = expression.alternatives;
  if (alternatives.length === 1)
    return gateTypes(builder, entry, alternatives[0] as readonly Reference[], cache);
  const sets: Types[] = [];
  for (const gate of alternatives) {
    if (gateMissing(builder, entry, gate, atAdd)) continue;
    if (gateExists(builder, entry, gate)) {
      sets.push(gateTypes(builder, entry, gate, cache));
      return union(sets);
    }
    const types = gateTypes(builder, entry, gate, cache);
    if (types === undefined) return undefined;
    sets.push(types);
  }
  return union(sets);
}

/** Types of one `&&` alternative: its last operand's. */
function gateTypes(
  builder: PlanBuilder,
  entry: CallEntry,
  gate: readonly Reference[],
  cache: WrittenTypesCache,
): Types {
  const last = gate[gate.length - 1];
  return last === undefined ? undefined : operandTypes(builder, entry, last, cache);
}
