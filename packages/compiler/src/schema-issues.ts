import type { Diagnostic, JsonObject } from "@obelisk/core";
import { appendPointer, didYouMean } from "@obelisk/core";
import { misplacedKeyHint, nestedParameterHint } from "./check-meta-like-param.js";
import { formatMessage } from "./format-message.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import { pickedBranches, someAncestor } from "./picked-branches.js";
import { schemaAtPath } from "./schema-types.js";
import { MAX_COLLECTED_ERRORS, type SchemaIssue } from "./schema-validator.js";
import { isPlainObject } from "./to-json-schema.js";
import { MAX_LISTED_PER_PLAN, type ViolationListing } from "./violation-listing.js";

const COMBINATORS = new Set(["anyOf", "oneOf", "not", "if", "contains", "uniqueItems", "enum", "const"]);
const GROUPING = new Set(["anyOf", "oneOf", "not"]);

/**
 * Keeps the issues that concern literal values: drops issues at a reference's position (references are
 * type-checked instead), combinator issues above one, and the sub-issues of `anyOf` / `oneOf` / `not`
 * (one diagnostic per violation: the combinator stands for its branches). Linear in issues × path depth
 * (a call with thousands of references in one array gets thousands of issues).
 */
export function literalIssues(
  issues: readonly SchemaIssue[],
  referencePointers: readonly string[],
): SchemaIssue[] {
  if (issues.length === 0) return [];
  // Most calls' issues are the reference strings themselves (a `number[]` holding references): the sets
  // below are built only when an issue needs them.
  let grouping: Set<string> | undefined;
  for (const issue of issues) {
    if (!GROUPING.has(issue.keyword)) continue;
    grouping ??= new Set();
    grouping.add(issue.schemaPath);
  }
  const references = referencePointers.length <= 8 ? undefined : new Set(referencePointers);
  const isReference = (at: string): boolean =>
    references === undefined ? referencePointers.includes(at) : references.has(at);
  let aboveReferences: Set<string> | undefined;
  const isAboveReference = (at: string): boolean => {
    if (aboveReferences === undefined) {
      const above = new Set<string>();
      for (const reference of referencePointers)
        someAncestor(reference, (ancestor) => !addNew(above, ancestor));
      aboveReferences = above;
    }
    return aboveReferences.has(at);
  };
  const explainedIfs = explainedConditionals(issues);
  const formats = formatFailures(issues);
  // A combinator's sub-issue is dropped (the combinator stands for its branches) unless its branch was
  // picked (see `pickedBranches`): then it is the violation, and the combinator's own issue is dropped.
  const picked = grouping === undefined ? undefined : pickedBranches(issues, grouping);
  const grouped = (issue: SchemaIssue): boolean =>
    grouping !== undefined &&
    someAncestor(
      issue.schemaPath,
      (path) => grouping.has(path) && !(picked?.inPickedBranch(issue, path) ?? false),
    );
  const kept = (issue: SchemaIssue): boolean => {
    if (explainedIfs?.has(ifKey(issue))) return false;
    // zod's `.email()` (and the like) gives a `format` and the regex behind it: one violation, one diagnostic.
    if (issue.keyword === "pattern" && formats?.has(issue.instancePath)) return false;
    if (grouped(issue) || picked?.picked(issue)) return false;
    const at = issue.instancePath;
    if (isReference(at) || someAncestor(at, isReference)) return false;
    return !(COMBINATORS.has(issue.keyword) && isAboveReference(at));
  };
  const out: SchemaIssue[] = [];
  for (const issue of issues) {
    const instead = picked === undefined || !GROUPING.has(issue.keyword) ? undefined : picked.instead(issue);
    if (instead === undefined ? kept(issue) : !grouped(issue) && kept(instead)) out.push(instead ?? issue);
  }
  return out;
}

/** Where a `format` failed (undefined when none did: the common case builds nothing). */
function formatFailures(issues: readonly SchemaIssue[]): Set<string> | undefined {
  let at: Set<string> | undefined;
  for (const issue of issues) {
    if (issue.keyword !== "format") continue;
    at ??= new Set();
    at.add(issue.instancePath);
  }
  return at;
}

/** The branch an `if` issue failed in (`#/…/then` or `#/…/else`) and where, as one key. */
function ifKey(issue: SchemaIssue): string {
  if (issue.keyword !== "if") return "";
  const branch = issue.params.failingKeyword;
  return `${issue.schemaPath.slice(0, issue.schemaPath.length - 2)}${String(branch)}\u0000${issue.instancePath}`;
}

/**
 * The keys (see `ifKey`) of the `if` issues ("must match \"then\" schema") that a more specific issue of
 * their branch, at or below their pointer, already explains: the wrapper adds nothing to it. Undefined
 * when there is no `if` issue (the common case: nothing is built). Linear in issues × depth.
 */
function explainedConditionals(issues: readonly SchemaIssue[]): Set<string> | undefined {
  if (!issues.some((issue) => issue.keyword === "if")) return undefined;
  const explained = new Set<string>();
  for (const issue of issues) {
    if (issue.keyword === "if") continue;
    someAncestor(issue.schemaPath, (branch) => {
      if (branch.endsWith("/then") || branch.endsWith("/else")) {
        const at = issue.instancePath;
        explained.add(`${branch}\u0000${at}`);
        someAncestor(at, (above) => !addNew(explained, `${branch}\u0000${above}`));
      }
      return false;
    });
  }
  return explained;
}

/** Adds a value to a set; false when it was there already. */
function addNew(set: Set<string>, value: string): boolean {
  if (set.has(value)) return false;
  set.add(value);
  return true;
}

/**
 * The keys declared by the schema of the value at `instancePath` (`/filters` → the keys of `filters`),
 * found by walking `schema` along it (local `$ref`s followed); empty where the walk is not certain (an
 * `anyOf` / `oneOf` on the way, an undescribed level). Not the issue's `schemaPath`: ajv writes it from
 * the `$ref` target when the keyword sits in one.
 */
function declaredKeysAt(schema: JsonObject, instancePath: string): readonly string[] {
  const path = instancePath
    .slice(1)
    .split("/")
    .map((token) => {
      const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
      return /^(?:0|[1-9][0-9]*)$/.test(key) ? Number(key) : key;
    });
  const properties = schemaAtPath(schema, path)?.properties;
  return isPlainObject(properties) ? Object.keys(properties) : [];
}

/**
 * Translates parameter issues: required → PARAM_MISSING, closed schema → PARAM_UNKNOWN (hint: the nearest
 * key declared where it sits), others PARAM_INVALID. `schema` is the one the parameters were checked
 * against. At most `listing`'s quota are listed, then one PARAM_INVALID at the call counts the rest. When
 * `stopped` (the issues are the first ones of a check that stopped: decision 0085), the count is a lower
 * bound; undefined (nothing spent) when they cannot fill the listing and leave one to count.
 */
export function paramDiagnostics(
  issues: readonly SchemaIssue[],
  callPointer: string,
  schema: JsonObject,
  callId: string | undefined,
  listing: ViolationListing,
  tool: string,
  stopped = false,
  raw?: JsonObject,
): Diagnostic[] | undefined {
  const out: Diagnostic[] = [];
  const quota = listing.quota();
  const call = raw === undefined ? undefined : { raw, tool };
  let seen: Set<string> | undefined;
  let next = 0;
  for (; next < issues.length && out.length < quota; next++) {
    const diagnostic = paramDiagnostic(issues[next] as SchemaIssue, callPointer, schema, callId, call);
    if (issues.length > 1) {
      // Two keywords may say one thing (a tuple's `items: false` and `maxItems`): one diagnostic.
      seen ??= new Set();
      if (!addNew(seen, `${diagnostic.code}\u0000${diagnostic.pointer}\u0000${diagnostic.message}`)) continue;
    }
    out.push(diagnostic);
  }
  if (stopped && (out.length < quota || next === issues.length)) return undefined;
  listing.spend(out.length);
  const what = `the parameters break the input schema of tool "${tool}"`;
  if (next < issues.length)
    out.push(unlisted(what, issues.length - next, out.length, callPointer, callId, stopped));
  return out;
}

/**
 * One PARAM_INVALID for the `count` violations of a call that are not listed (`listed` of them were);
 * `atLeast` when the check stopped collecting (decision 0085): there may be more.
 */
function unlisted(
  what: string,
  count: number,
  listed: number,
  pointer: string,
  callId: string | undefined,
  atLeast: boolean,
): Diagnostic {
  const places = `${atLeast ? "at least " : ""}${count.toLocaleString("en-US")}`;
  const stop = atLeast
    ? `; a check stops after ${MAX_COLLECTED_ERRORS.toLocaleString("en-US")} schema errors of one call`
    : "";
  const message =
    listed > 0
      ? `${what} in ${places} more places (the first ${listed} are listed${stop})`
      : `${what} in ${places} places (not listed: a plan lists its first ${MAX_LISTED_PER_PLAN.toLocaleString("en-US")}${stop})`;
  const hint = "fix the listed violations and validate again: the rest are often the same mistake";
  return makeDiagnostic("PARAM_INVALID", message, pointer, { callId, hint });
}

/**
 * One parameter issue as a diagnostic; `call` (the call as written and its tool's name), when given, lets a
 * top-level PARAM_MISSING or PARAM_UNKNOWN name the fix for parameters nested under `params` & co.
 */
function paramDiagnostic(
  issue: SchemaIssue,
  callPointer: string,
  schema: JsonObject,
  callId: string | undefined,
  call?: { readonly raw: JsonObject; readonly tool: string },
): Diagnostic {
  const at = callPointer + issue.instancePath;
  const where = issue.instancePath === "" ? "the call" : issue.instancePath.slice(1);
  if (issue.keyword === "required") {
    const name = String(issue.params.missingProperty);
    const hint =
      call === undefined || issue.instancePath !== ""
        ? undefined
        : nestedParameterHint(call.raw, name, schema, call.tool);
    return makeDiagnostic("PARAM_MISSING", `missing required parameter "${name}" in ${where}`, at, {
      callId,
      hint,
    });
  }
  const extra = issue.params.additionalProperty ?? issue.params.unevaluatedProperty;
  if (
    (issue.keyword === "additionalProperties" || issue.keyword === "unevaluatedProperties") &&
    extra !== undefined
  ) {
    const name = String(extra);
    const top = issue.instancePath === "";
    const known = top
      ? isPlainObject(schema.properties)
        ? Object.keys(schema.properties)
        : []
      : declaredKeysAt(schema, issue.instancePath);
    const where = top ? "" : ` in ${issue.instancePath.slice(1)}`;
    const hint =
      didYouMean(name, known) ??
      (top && call !== undefined ? misplacedKeyHint(name, call.tool) : undefined) ??
      (top || known.length === 0
        ? undefined
        : `it takes ${known.slice(0, 10).join(", ")}${known.length > 10 ? ", …" : ""}`);
    const message = `unknown parameter "${name}"${where} (the schema does not declare it)`;
    return makeDiagnostic("PARAM_UNKNOWN", message, appendPointer(at, name), { callId, hint });
  }
  return makeDiagnostic("PARAM_INVALID", `${where}: ${schemaIssueText(issue, schema)}`, at, { callId });
}

/**
 * One schema issue in words, as `validate` says it: a format's name for a `pattern` or `format` issue whose
 * schema has one (`must be an email address (format "email")`), the allowed values of an `enum`, a long
 * pattern cut; ajv's message otherwise. `schema` is the one the issue's `schemaPath` points into.
 */
export function schemaIssueText(issue: SchemaIssue, schema: JsonObject): string {
  const format =
    issue.keyword === "pattern" || issue.keyword === "format"
      ? formatMessage(schema, issue.schemaPath)
      : undefined;
  return format ?? issueMessage(issue);
}

/** At most this many allowed values are listed for a failed `enum`. */
const MAX_LISTED_VALUES = 10;
/** A listed value longer than this (as JSON) is cut. */
const MAX_VALUE_TEXT = 60;

/** A value as short JSON text. */
function valueText(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= MAX_VALUE_TEXT ? text : `${text.slice(0, MAX_VALUE_TEXT - 1)}…`;
}

/** ajv's message, with the allowed values of a failed `enum` (the first ten, then "…") or `const`. */
function issueMessage(issue: SchemaIssue): string {
  if (issue.keyword === "enum" && Array.isArray(issue.params.allowedValues)) {
    const values = issue.params.allowedValues as readonly unknown[];
    const listed = values.slice(0, MAX_LISTED_VALUES).map(valueText).join(", ");
    const more = values.length > MAX_LISTED_VALUES ? `, … (${values.length - MAX_LISTED_VALUES} more)` : "";
    return `must be one of ${listed}${more}`;
  }
  if (issue.keyword === "const" && Object.hasOwn(issue.params, "allowedValue"))
    return `must be ${valueText(issue.params.allowedValue)}`;
  if (issue.keyword === "pattern" && typeof issue.params.pattern === "string") {
    const pattern = issue.params.pattern;
    // A long regex (zod's email, uuid…) says little to a reader and fills the message.
    return pattern.length <= MAX_VALUE_TEXT
      ? `must match pattern ${JSON.stringify(pattern)}`
      : `must match the tool's pattern ${JSON.stringify(`${pattern.slice(0, MAX_VALUE_TEXT - 1)}…`)}`;
  }
  return issue.message;
}

/**
 * Translates issues of a latent call's `_output` (PARAM_INVALID at `/…/_output` + the value's path), as
 * `paramDiagnostics` does: undefined when `stopped` issues cannot fill the listing and leave one to count.
 */
export function outputDiagnostics(
  issues: readonly SchemaIssue[],
  outputPointer: string,
  callId: string | undefined,
  listing: ViolationListing,
  tool: string,
  stopped = false,
): Diagnostic[] | undefined {
  const kept = literalIssues(issues, []);
  const listed = kept.slice(0, listing.quota());
  if (stopped && listed.length === kept.length) return undefined;
  listing.spend(listed.length);
  const out = listed.map((issue) =>
    makeDiagnostic(
      "PARAM_INVALID",
      `_output${issue.instancePath}: ${issueMessage(issue)}`,
      outputPointer + issue.instancePath,
      {
        callId,
      },
    ),
  );
  const what = `_output breaks the output schema of tool "${tool}"`;
  if (listed.length < kept.length)
    out.push(unlisted(what, kept.length - listed.length, listed.length, outputPointer, callId, stopped));
  return out;
}
