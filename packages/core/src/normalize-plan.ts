import type { Diagnostic } from "./diagnostic.js";
import { appendPointer } from "./json-pointer.js";
import type { JsonObject, JsonValue } from "./json-value.js";
import type { LimitOverrides, Limits } from "./limits.js";
import { resolveLimits } from "./limits.js";
import { planCopyRefusal } from "./plan-copy-refusal.js";
import { planDiagnostic } from "./plan-diagnostic.js";
import type { PlanCallSource, PlanDocument, PlanForm } from "./plan-document.js";
import { isAtOrBelow, planLimitDiagnostics, withLimitPlaceholders } from "./plan-limit-diagnostics.js";
import { type ToJsonValueResult, toJsonValue } from "./value-to-json-value.js";

/** The result of normalizing a plan document. */
export interface NormalizePlanResult {
  /** Present whenever the calls could be located (even with diagnostics on optional fields). */
  readonly document?: PlanDocument;
  /** PLAN_SHAPE / PLAN_LIMIT problems; the calls themselves are not validated here. */
  readonly diagnostics: Diagnostic[];
  /**
   * Present only when the value's sole limit problems are per-value (strings or keys over
   * `maxStringLength`, containers deeper than `maxDepth`): then `document` is absent and `diagnostics` holds
   * those PLAN_LIMIT diagnostics and the shape problems of the rest, and this is the copy to analyse the
   * rest with. See {@link PlaceholderDocument}.
   */
  readonly placeholders?: PlaceholderDocument;
  /**
   * True when the value has no JSON copy (not JSON, or over `maxDocumentBytes`): `diagnostics` hold the one
   * that says why, made from the copy's answer. The copy was the only reading of the value; do not read it
   * again (to hash it, say): a hostile one (a Proxy claiming a billion items) need not end.
   */
  readonly uncopied?: true;
}

/**
 * A plan document in which every value over a per-value limit is replaced by a placeholder (a too-long
 * string by `""`, a member with a too-long key left out, a too-deep container by `null`), so that the rest
 * can be compiled and every diagnostic reported at once (SPEC §6). For diagnostics only: it is not the
 * submitted plan, and is never hashed, approved, stored or run.
 */
export interface PlaceholderDocument {
  /** The document with placeholders (its `source` too). */
  readonly document: PlanDocument;
  /**
   * Pointers of the replaced values, each reported by a PLAN_LIMIT diagnostic: any other diagnostic at or
   * below one of them is about the placeholder, not the submitted value, and is to be left out.
   */
  readonly pointers: readonly string[];
}

/** Options of {@link normalizePlan}. */
export interface NormalizePlanOptions {
  /** Limits to enforce (defaults: {@link DEFAULT_LIMITS}). */
  readonly limits?: LimitOverrides;
  /**
   * The value's JSON copy when the caller made it already (`toJsonValue` with `maxDocumentBytes` and
   * `remember`): taken as the copy, so that the value is not read again — a refused one answers from it.
   */
  readonly copy?: ToJsonValueResult;
}

/** The accepted forms, for hints. */
export const PLAN_FORMS_HINT =
  'a plan is { "type": "plan", "plan": [calls] }, { "calls": [calls] }, an array of calls, ' +
  'or one call object with "_tool"';

const OPTIONAL_FIELDS = ["id", "description", "inputSchema", "$schema"] as const;

type UnknownRecord = Record<string, unknown>;

function isObject(value: unknown): value is UnknownRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function own(value: UnknownRecord, key: string): unknown {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

/** Locates the calls array and the form of a document object, or reports why it is not a plan. */
function locateCalls(
  value: UnknownRecord,
  diagnostics: Diagnostic[],
): { form: PlanForm; key: "plan" | "calls" } | undefined {
  const type = own(value, "type");
  if (type !== undefined && type !== "plan") {
    diagnostics.push(
      planDiagnostic("PLAN_SHAPE", 'a plan document has "type": "plan"', "/type", PLAN_FORMS_HINT),
    );
    return undefined;
  }
  const key = planCallsKey(value);
  if (key === undefined) {
    const message = 'not a plan: an object needs "plan", "calls" or "_tool"';
    diagnostics.push(planDiagnostic("PLAN_SHAPE", message, "", PLAN_FORMS_HINT));
    return undefined;
  }
  if (!Array.isArray(own(value, key))) {
    const misplaced = Object.hasOwn(value, key) ? undefined : misplacedCalls(value);
    if (misplaced !== undefined) {
      diagnostics.push(misplaced);
      return undefined;
    }
    const pointer = Object.hasOwn(value, key) ? `/${key}` : "";
    diagnostics.push(
      planDiagnostic("PLAN_SHAPE", `"${key}" must be an array of calls`, pointer, PLAN_FORMS_HINT),
    );
    return undefined;
  }
  return { form: key === "plan" ? "plan" : "calls", key };
}

/**
 * `{ "type": "plan", "steps": [...] }`: PLAN_SHAPE at the first unknown key holding an array (the calls
 * under another name), saying the calls go in `"plan"`; undefined when there is none.
 */
function misplacedCalls(value: UnknownRecord): Diagnostic | undefined {
  for (const name of Object.keys(value)) {
    if (
      name === "type" ||
      (OPTIONAL_FIELDS as readonly string[]).includes(name) ||
      !Array.isArray(value[name])
    )
      continue;
    const message = `unknown key "${name}": the calls go in "plan"`;
    const hint = `write { "type": "plan", "plan": [ …the calls ] } (or "calls": [ … ])`;
    return planDiagnostic("PLAN_SHAPE", message, appendPointer("", name), hint);
  }
  return undefined;
}

/** Checks the optional top-level fields and unknown keys; returns the valid optional fields. */
function optionalFields(value: UnknownRecord, key: string, diagnostics: Diagnostic[]): UnknownRecord {
  const fields: UnknownRecord = {};
  const allowed = new Set<string>(["type", key, ...OPTIONAL_FIELDS]);
  for (const name of Object.keys(value)) {
    if (!allowed.has(name)) {
      const hint = `allowed top-level fields: ${[...allowed].map((n) => `"${n}"`).join(", ")}`;
      diagnostics.push(
        planDiagnostic("PLAN_SHAPE", `unknown top-level field "${name}"`, appendPointer("", name), hint),
      );
    }
  }
  for (const name of ["id", "description"] as const) {
    const field = own(value, name);
    if (field === undefined) continue;
    if (typeof field === "string") fields[name] = field;
    else diagnostics.push(planDiagnostic("PLAN_SHAPE", `"${name}" must be a string`, `/${name}`));
  }
  const inputSchema = own(value, "inputSchema");
  if (isObject(inputSchema)) fields.inputSchema = inputSchema as JsonObject;
  else if (inputSchema !== undefined) {
    // true / false are JSON Schemas too, but an object is what the input is checked against and typed by
    const hint =
      inputSchema === true
        ? "true admits any input: leave inputSchema out"
        : inputSchema === false
          ? "false admits no input at all: give an object schema of the input the plan reads"
          : 'give an object schema, e.g. { "type": "object", "properties": { "userName": { "type": "string" } } }';
    diagnostics.push(
      planDiagnostic("PLAN_SHAPE", '"inputSchema" must be a JSON Schema object', "/inputSchema", hint),
    );
  }
  return fields;
}

function callSources(calls: readonly unknown[], base: string): PlanCallSource[] {
  return calls.map((value, index) => ({ value, pointer: appendPointer(base, index), index }));
}

/**
 * The key of a plan object that holds its calls (SPEC §5): `plan` when it has one or says `"type": "plan"`,
 * else `calls` when it has one; undefined when neither (whatever the value under the key is).
 */
export function planCallsKey(value: Readonly<Record<string, unknown>>): "plan" | "calls" | undefined {
  if (Object.hasOwn(value, "plan") || own(value, "type") === "plan") return "plan";
  return Object.hasOwn(value, "calls") ? "calls" : undefined;
}

/** Normalizes the shape only (limits on depth and strings are assumed checked). */
export function normalizePlanShape(value: unknown, limits: Limits): NormalizePlanResult {
  const diagnostics: Diagnostic[] = [];
  let form: PlanForm;
  let calls: PlanCallSource[];
  let fields: UnknownRecord = {};
  let arrayPointer = "";
  if (Array.isArray(value)) {
    form = "array";
    calls = callSources(value, "");
  } else if (isObject(value) && Object.hasOwn(value, "_tool") && own(value, "type") !== "plan") {
    form = "call";
    calls = [{ value, pointer: "", index: 0 }];
  } else if (isObject(value)) {
    const located = locateCalls(value, diagnostics);
    if (located === undefined) return { diagnostics };
    form = located.form;
    arrayPointer = `/${located.key}`;
    calls = callSources(own(value, located.key) as unknown[], arrayPointer);
    fields = optionalFields(value, located.key, diagnostics);
  } else {
    const what = value === null ? "null" : typeof value;
    diagnostics.push(planDiagnostic("PLAN_SHAPE", `not a plan: got ${what}`, "", PLAN_FORMS_HINT));
    return { diagnostics };
  }
  if (calls.length > limits.maxCalls) {
    const message = `the plan has ${calls.length} calls, more than the limit of ${limits.maxCalls}`;
    diagnostics.push(
      planDiagnostic("PLAN_LIMIT", message, arrayPointer, "split the plan, or raise maxCalls"),
    );
    return { diagnostics };
  }
  return { document: { form, calls, ...fields, source: value } as PlanDocument, diagnostics };
}

/**
 * Normalizes a parsed plan document from any accepted form (SPEC §5) and enforces the document limits
 * (depth, string length, number of calls). The document's `source` is a frozen JSON copy of `value`
 * (what is hashed, compiled, stored and run: later changes to `value` change nothing). Never throws; does
 * not validate the calls themselves.
 *
 * The copy is made first, held to `maxDocumentBytes`, and is all that is read of `value`: the limits are
 * checked on it. A value it refuses (not JSON, or over `maxDocumentBytes`) gets that one diagnostic, from
 * the copy's own answer ({@link planCopyRefusal}), and `uncopied`. Over `maxCalls`, only that is reported.
 * Over per-value limits only (string or key length, depth), there is no `document`: the PLAN_LIMIT
 * diagnostics come with the shape problems of the rest and with `placeholders`, the copy to compile the
 * rest with. The common case (no limit reached) pays for nothing of this: the limit check's quick walk
 * answers it.
 */
export function normalizePlan(value: unknown, options: NormalizePlanOptions = {}): NormalizePlanResult {
  const limits = resolveLimits(options.limits);
  const primitive = typeof value !== "object" || value === null;
  if (primitive && (typeof value !== "string" || value.length <= limits.maxStringLength))
    return normalizePlanShape(value, limits);
  const copy = options.copy ?? toJsonValue(value, { maxBytes: limits.maxDocumentBytes, remember: true });
  if (!copy.ok) return { diagnostics: [planCopyRefusal(copy, limits)], uncopied: true };
  const limitDiagnostics = planLimitDiagnostics(copy.value, limits);
  if (limitDiagnostics.length === 0) return normalizePlanShape(copy.value, limits);
  return withPlaceholders(copy.value, limitDiagnostics, limits);
}

/**
 * The result for a JSON document whose only limit problems are per-value (`limitDiagnostics`): the
 * PLAN_LIMIT diagnostics, the shape problems of the rest (none at or below a replaced value), and the
 * copy with placeholders to compile the rest with; never a `document`. The whole-document limit on calls
 * is still an early exit, and so is a document whose replacements the diagnostics do not all name (a
 * shared sub-object reported once, or more problems than `MAX_LIMIT_DIAGNOSTICS`): only its limit
 * diagnostics are reported.
 */
function withPlaceholders(
  value: JsonValue,
  limitDiagnostics: Diagnostic[],
  limits: Limits,
): NormalizePlanResult {
  const replaced = withLimitPlaceholders(value, limits);
  const reported = new Set(limitDiagnostics.map((diagnostic) => diagnostic.pointer));
  if (replaced.pointers.length === 0 || !replaced.pointers.every((pointer) => reported.has(pointer)))
    return { diagnostics: limitDiagnostics };
  const shape = normalizePlanShape(replaced.value, limits);
  const pointers = [...new Set(replaced.pointers)];
  const under = (pointer: string) => pointers.some((base) => isAtOrBelow(pointer, base));
  const callsLimit = shape.diagnostics.find((diagnostic) => diagnostic.code === "PLAN_LIMIT");
  if (callsLimit !== undefined) return { diagnostics: [callsLimit] };
  const diagnostics = [
    ...limitDiagnostics,
    ...shape.diagnostics.filter((diagnostic) => !under(diagnostic.pointer)),
  ];
  return shape.document === undefined
    ? { diagnostics }
    : { diagnostics, placeholders: { document: shape.document, pointers } };
}
