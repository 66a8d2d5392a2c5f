import type { Diagnostic, InputExpression, JsonObject, JsonValue, Path } from "@obelisk/core";
import { formatExpression } from "@obelisk/core";
import type { CallEntry } from "./builder-types.js";
import type { ParamReference } from "./compiled-plan.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import { contextValue, expressionTypes } from "./operand-types.js";
import type { PlanBuilder } from "./plan-builder.js";
import { schemaAtPath, schemaTypes, someCompatible, typeCompatible } from "./schema-types.js";
import { isSharedLocation } from "./shared-locations.js";
import { readsUnreadableKind } from "./unreadable-reference.js";
import type { Types, WrittenTypesCache } from "./written-types.js";

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
        ? (wholeValueHint(value.expression, types, allowed) ?? textForNumberHint(types, allowed))
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

/**
 * The hint for text read where a number or boolean is needed (`"limit": "†input.n"` with `n` = `"5"`,
 * decision 0097): a reference passes the value as it is, so the value must have the type.
 */
function textForNumberHint(types: ReadonlySet<string>, allowed: ReadonlySet<string>): string | undefined {
  if (types.size !== 1 || !types.has("string") || allowed.has("string")) return undefined;
  const needs = [...allowed].join(" or ");
  const example = allowed.has("boolean") && allowed.size === 1 ? 'true, not "true"' : '5, not "5"';
  return `a reference passes the value as it is, with no conversion from text: read a value of type ${needs}, or write the value itself (${example})`;
}

/** The result when there is no mismatch (never written to). */
const NONE: readonly Diagnostic[] = [];
