import type { Diagnostic, InputExpression, JsonObject, JsonValue, Path, Reference } from "@obelisk/core";
import { formatExpression, getAtPath, valueAtPath } from "@obelisk/core";
import type { CallEntry } from "./builder-types.js";
import type { ParamReference, WriterLink } from "./compiled-plan.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import type { PlanBuilder } from "./plan-builder.js";
import { jsonTypeOf, schemaAtPath, schemaTypes, someCompatible, typeCompatible } from "./schema-types.js";
import { isSharedLocation } from "./shared-locations.js";
import { storedCallOutput } from "./stored-call-output.js";
import { readsUnreadableKind } from "./unreadable-reference.js";
import { judgeOperand } from "./unresolved-references.js";

type Types = Set<string> | undefined;

/** The union of type sets (undefined when any is unknown). Type sets are never changed once made. */
function union(sets: Types[]): Types {
  for (const set of sets) if (set === undefined) return undefined;
  if (sets.length === 1) return sets[0];
  const result = new Set<string>();
  for (const set of sets) for (const type of set as Set<string>) result.add(type);
  return result;
}

/**
 * Types the writers of an operand can put at its path, by its writer list (a writer group's list is shared
 * by every reader of one text, so one answer serves them all: the check touches several objects of each
 * writer, which in a large plan are far apart in memory).
 */
export type WrittenTypesCache = Map<readonly WriterLink[], Set<string> | null>;

/** Types the writers of an operand can put at its path (undefined when any is unknown). */
function writtenTypes(
  builder: PlanBuilder,
  links: readonly WriterLink[],
  reference: Reference,
  cache: WrittenTypesCache,
): Types {
  // No compiled call declares what it writes and no state schema narrows it: unknown, without the lookup.
  if (!builder.typedWriters && builder.settings.context.stateSchema === undefined) return undefined;
  // One lookup: an unknown answer is kept as null.
  const known = cache.get(links);
  if (known !== undefined) return known ?? undefined;
  const types = withStateSchema(builder, reference, computeWrittenTypes(builder, links, reference));
  cache.set(links, types ?? null);
  return types;
}

function computeWrittenTypes(
  builder: PlanBuilder,
  links: readonly WriterLink[],
  reference: Reference,
): Types {
  const sets: Types[] = [];
  for (const link of links) {
    const writer = builder.entries.get(link.callId);
    if (writer === undefined || writer.call.outputMethod !== "set") return undefined;
    for (const alternative of link.alternatives) {
      // Only the first alternative's value is known: it is checked against the output schema at run time,
      // while a `branch(k, value)` for k ≥ 1 may hold any JSON and the last of two or more gets the error.
      if (alternative !== 0) return undefined;
      for (const target of writer.alternatives[alternative] ?? []) {
        if (target.kind !== reference.kind || target.path.length > reference.path.length) return undefined;
        const output = writer.call.hasOutput
          ? undefined
          : (writer.tool.storedOutputSchema ?? writer.tool.outputSchema);
        if (writer.call.hasOutput) {
          const found = getAtPath(writer.call.output, reference.path.slice(target.path.length));
          sets.push(found.found ? new Set([jsonTypeOf(found.value)]) : undefined);
          continue;
        }
        if (output === undefined) return undefined;
        sets.push(
          schemaTypes(
            schemaAtPath(output, reference.path.slice(target.path.length)),
            output,
            builder.declaredTypes,
          ),
        );
      }
    }
  }
  return union(sets);
}

/** The types both `types` and `schema` admit (integer for number against integer); either may be unknown. */
function intersect(types: Types, schema: Types): Types {
  if (types === undefined || schema === undefined) return types ?? schema;
  const both = new Set<string>();
  for (const type of types) {
    if (schema.has(type)) both.add(type);
    else if (type === "number" ? schema.has("integer") : type === "integer" && schema.has("number"))
      both.add("integer");
  }
  return both;
}

/**
 * Written types of a `†state` path narrowed by the state schema there: every write is checked against it
 * at run time (SPEC §5), so the value read has one of its types too, whatever the writer's (unknown) type.
 * No common type (the writer can only break the schema, reported at its `_outputPath`): the writer's types
 * stay, so its readers are reported as before.
 */
function withStateSchema(builder: PlanBuilder, reference: Reference, types: Types): Types {
  const stateSchema = builder.settings.context.stateSchema;
  if (stateSchema === undefined || reference.kind !== "state") return types;
  const schema = schemaTypes(schemaAtPath(stateSchema, reference.path), stateSchema, builder.declaredTypes);
  const both = intersect(types, schema);
  return both !== undefined && both.size === 0 ? types : both;
}

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
function contextValue(
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
function expressionTypes(
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

/**
 * Types the parameter schema admits at a location: remembered per shared location list (the calls of a
 * plan repeat `inputs[0]`), with the schema they were computed for (a plan of several tools recomputes
 * when the tool changes).
 */
function allowedTypes(builder: PlanBuilder, inputSchema: JsonObject, location: Path): Types {
  const shared = isSharedLocation(location);
  if (shared) {
    const known = builder.allowedTypes.get(location);
    if (known !== undefined && known.schema === inputSchema) return known.types;
  }
  const types = schemaTypes(schemaAtPath(inputSchema, location), inputSchema, builder.declaredTypes);
  if (shared) builder.allowedTypes.set(location, { schema: inputSchema, types });
  return types;
}

/**
 * REF_TYPE_MISMATCH where the referenced value's known types certainly cannot satisfy the parameter's
 * schema (conservative: only JSON `type`s are compared, and only when both sides are known).
 */
export function referenceTypeMismatches(
  builder: PlanBuilder,
  entry: CallEntry,
  cache: WrittenTypesCache = new Map(),
  atAdd = false,
): readonly Diagnostic[] {
  let out: Diagnostic[] | undefined;
  const inputSchema = entry.tool.inputSchema;
  const context = builder.settings.context;
  for (const reference of entry.call.references) {
    if (readsUnreadableKind(context, entry.tool.name, reference)) continue;
    const allowed = allowedTypes(builder, inputSchema, reference.location);
    if (allowed === undefined) continue;
    const value = reference.value;
    // A template is a string: most parameters holding one accept strings (no set to build then).
    if (value.type === "template" && typeCompatible("string", allowed)) continue;
    const types =
      value.type === "template"
        ? new Set(["string"])
        : expressionTypes(builder, entry, value.expression, cache, atAdd);
    if (types === undefined || types.size === 0 || someCompatible(types, allowed)) continue;
    const approval = knownApproval(builder, entry, reference);
    if (approval !== undefined && (approval.value === false || approval.value === null)) continue;
    out ??= [];
    out.push(mismatch(value, types, allowed, reference.pointer, entry.call.id, approval?.text));
  }
  return out ?? NONE;
}

/**
 * The known value of an approval parameter (`approvalParams`, a whole `†state.approvals.` reference that
 * nothing in the plan writes) with the reference's text. `false` or `null` is a refusal: the run ends the
 * call `rejected` before its input schema is checked (decision 0048, amended at stop 39), so its type is no
 * error of the plan. Another value of the wrong type is still REF_TYPE_MISMATCH (it approves, and the tool
 * could not take it), with a hint that the value is a person's to change, not the plan's.
 */
function knownApproval(
  builder: PlanBuilder,
  entry: CallEntry,
  reference: ParamReference,
): { readonly value: JsonValue; readonly text: string } | undefined {
  const [name] = reference.location;
  const value = reference.value;
  if (reference.location.length !== 1 || value.type !== "reference") return undefined;
  if (typeof name !== "string" || !entry.tool.approvalParams.includes(name)) return undefined;
  const alternatives = value.expression.alternatives;
  const operand = alternatives.length === 1 && alternatives[0]?.length === 1 ? alternatives[0][0] : undefined;
  if (operand === undefined || operand.kind !== "state" || operand.path[0] !== "approvals") return undefined;
  if ((entry.writers.get(operand.text)?.length ?? 0) > 0) return undefined;
  const known = contextValue(builder, entry, operand);
  return known === undefined ? undefined : { value: known.value, text: operand.text };
}

/**
 * The hint for a whole reference to an object or array where text is needed (the model's most common slip:
 * `"text": "†state.user"`): read a string inside it, or send it as JSON text through a template.
 */
function wholeValueHint(
  expression: InputExpression,
  types: ReadonlySet<string>,
  allowed: ReadonlySet<string>,
): string | undefined {
  if (!allowed.has("string") || ![...types].every((type) => type === "object" || type === "array"))
    return undefined;
  const text = formatExpression(expression);
  const asJson = `write "{${text}}" to send it as JSON text`;
  const single = expression.alternatives.length === 1 && expression.alternatives[0]?.length === 1;
  if (!single) return asJson;
  const inside = types.has("object") ? `"${text}.<field>"` : `"${text}[0]"`;
  return `read a string inside it, e.g. ${inside}, or ${asJson}`;
}

/**
 * The REF_TYPE_MISMATCH of one parameter. A template is a string whatever its references hold (SPEC §2
 * rule 2): the message says so (it said "the referenced value is string", false on its face for
 * `{†input.count}` holding 5), and a whole value that is one slot gets the hint to drop the braces.
 * `approval`: the reference text of an approval parameter, whose value is a person's to change.
 */
function mismatch(
  value: ParamReference["value"],
  types: ReadonlySet<string>,
  allowed: ReadonlySet<string>,
  pointer: string,
  callId: string,
  approval?: string,
): Diagnostic {
  const needs = [...allowed].join(" or ");
  if (value.type !== "template") {
    const message = `the referenced value is ${[...types].join(" or ")} but the parameter needs ${needs}`;
    const hint =
      approval === undefined
        ? wholeValueHint(value.expression, types, allowed)
        : `${approval} is a person's answer, not the plan's: to approve, write a value the tool takes there ` +
          "(obelisk state set, engine.set); false or null refuses";
    return makeDiagnostic("REF_TYPE_MISMATCH", message, pointer, { callId, hint });
  }
  const [slot] = value.parts;
  const whole = value.parts.length === 1 && typeof slot === "object" ? slot : undefined;
  const message =
    whole === undefined
      ? `the value is a template, and a template is a string: the parameter needs ${needs}`
      : `the braces make the value a template, and a template is a string: the parameter needs ${needs}`;
  const hint =
    whole === undefined ? undefined : `drop the braces: ${JSON.stringify(formatExpression(whole))}`;
  return makeDiagnostic("REF_TYPE_MISMATCH", message, pointer, { callId, hint });
}

/** The result when there is no mismatch (never written to). */
const NONE: readonly Diagnostic[] = [];
