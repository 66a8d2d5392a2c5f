import type { Diagnostic, JsonObject, JsonValue, PathSegment } from "@obelisk/core";
import { appendPointer } from "@obelisk/core";
import type { CallMeta } from "./call-meta.js";
import { checkLiteralOutput, type LiteralOutputOptions } from "./check-literal-output.js";
import { checkApprovalParams, checkPlanOverrides } from "./check-tool-guards.js";
import type { ParamReference } from "./compiled-plan.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import { paramsForSchemaCheck } from "./reference-witnesses.js";
import type { RegisteredTool } from "./registered-tool.js";
import { literalIssues, outputDiagnostics, paramDiagnostics } from "./schema-issues.js";
import { completeCheckOf, type SchemaIssue } from "./schema-validator.js";
import type { ViolationListing } from "./violation-listing.js";

/**
 * The checks of a call against its tool: approval parameters, plan overrides of a tool that is not
 * idempotent, the parameters against the input schema (PARAM_*), and `_output` (only for a latent tool,
 * checked against the output schema).
 */
export function checkAgainstTool(
  tool: RegisteredTool,
  raw: JsonObject,
  params: JsonObject,
  references: readonly ParamReference[],
  pointer: string,
  literalOptions: LiteralOutputOptions,
  meta: CallMeta,
  listing: ViolationListing,
  out: Diagnostic[],
): void {
  const callId = literalOptions.callId;
  if (tool.approvalParams.length > 0) checkApprovalParams(tool, params, references, pointer, callId, out);
  if (!tool.idempotent) checkPlanOverrides(tool, meta, pointer, callId, out);
  const checked = checkInput(
    tool,
    paramsForSchemaCheck(tool.inputSchema, params, references),
    pointer,
    callId,
    out,
  );
  if (checked.length > 0 && (completeCheckOf(checked) !== undefined || !allAtReferences(checked, references)))
    listParamViolations(tool, raw, checked, references, pointer, callId, listing, out);
  if (!tool.latent) {
    if (meta.hasOutput) {
      const outputPointer = appendPointer(pointer, "_output");
      const hint = "_output is only for latent tools (tools without an implementation)";
      out.push(
        makeDiagnostic(
          "CALL_SHAPE",
          `tool "${tool.name}" computes its value; _output is not allowed`,
          outputPointer,
          { callId, hint },
        ),
      );
    }
    return;
  }
  if (!meta.hasOutput) {
    const message = `tool "${tool.name}" is latent and the call gives no _output: it will be deferred`;
    out.push(
      makeDiagnostic("LATENT_WITHOUT_OUTPUT", message, pointer, { callId, hint: 'add "_output": <value>' }),
    );
    return;
  }
  const outputPointer = appendPointer(pointer, "_output");
  checkLiteralOutput(raw._output as JsonValue, outputPointer, literalOptions, out);
  const issues = safeCheck(() => tool.validateOutput(raw._output), outputPointer, callId, out);
  const completeOutput = completeCheckOf(issues);
  const listed =
    outputDiagnostics(issues, outputPointer, callId, listing, tool.name, completeOutput !== undefined) ??
    outputDiagnostics(
      safeCheck(completeOutput ?? (() => []), outputPointer, callId, out),
      outputPointer,
      callId,
      listing,
      tool.name,
    );
  for (const diagnostic of listed ?? []) out.push(diagnostic);
}

/**
 * The diagnostics of a call's parameter issues (see `paramDiagnostics`). The first issues of a check that
 * stopped, when they cannot fill the listing, give way to a complete check's (decision 0085). Its own
 * function: a closure in `checkAgainstTool` would cost every call a context.
 */
function listParamViolations(
  tool: RegisteredTool,
  raw: JsonObject,
  checked: readonly SchemaIssue[],
  references: readonly ParamReference[],
  pointer: string,
  callId: string | undefined,
  listing: ViolationListing,
  out: Diagnostic[],
): void {
  const referencePointers = references.map((reference) => reference.pointer.slice(pointer.length));
  const schema = tool.paramsSchema ?? tool.inputSchema;
  const diagnostics = (issues: readonly SchemaIssue[], stopped: boolean): Diagnostic[] | undefined =>
    paramDiagnostics(
      literalIssues(issues, referencePointers),
      pointer,
      schema,
      callId,
      listing,
      tool.name,
      stopped,
      raw,
    );
  const complete = completeCheckOf(checked);
  const listed =
    diagnostics(checked, complete !== undefined) ??
    diagnostics(safeCheck(complete ?? (() => []), pointer, callId, out), false);
  for (const diagnostic of listed ?? []) out.push(diagnostic);
}

/** `tool.validateInput(params)`, or a PARAM_INVALID diagnostic when the schema cannot be used (no closure per call). */
function checkInput(
  tool: RegisteredTool,
  params: JsonObject,
  pointer: string,
  callId: string | undefined,
  out: Diagnostic[],
): readonly SchemaIssue[] {
  try {
    return tool.validateInput(params);
  } catch (error) {
    out.push(unusableSchema(error, pointer, callId));
    return [];
  }
}

/**
 * True when `pointer` is the JSON Pointer of `location` (`/inputs/0` for `["inputs", 0]`), compared in
 * place: no pointer string is built, and the reference's own pointer (a concatenation) is not flattened.
 */
function pointsAt(pointer: string, location: readonly PathSegment[]): boolean {
  let at = 0;
  for (const segment of location) {
    if (pointer.charCodeAt(at) !== 0x2f) return false;
    at++;
    const token = typeof segment === "number" ? String(segment) : segment;
    for (let i = 0; i < token.length; i++) {
      const code = token.charCodeAt(i);
      if (code === 0x7e || code === 0x2f) {
        // `~` is written `~0`, `/` is written `~1`.
        if (pointer.charCodeAt(at) !== 0x7e || pointer.charCodeAt(at + 1) !== (code === 0x7e ? 0x30 : 0x31))
          return false;
        at += 2;
      } else if (pointer.charCodeAt(at++) !== code) return false;
    }
  }
  return at === pointer.length;
}

/**
 * True when every issue sits exactly at a reference string (a reference where the schema wants a number,
 * the common case): `literalIssues` drops all of them, so the check ends without building its lists.
 */
function allAtReferences(issues: readonly SchemaIssue[], references: readonly ParamReference[]): boolean {
  // Issues come in document order, like the references: each is looked for from the reference after the
  // previous one's, among a few (linear however many references; a miss leaves it to literalIssues).
  const tries = Math.min(references.length, 4);
  let next = 0;
  for (const issue of issues) {
    const at = issue.instancePath;
    let found = false;
    for (let k = 0; k < tries && !found; k++) {
      const candidate = references[(next + k) % references.length] as ParamReference;
      if (pointsAt(at, candidate.location)) {
        found = true;
        next = (next + k + 1) % references.length;
      }
    }
    if (!found) return false;
  }
  return true;
}

function safeCheck<T>(
  check: () => readonly T[],
  pointer: string,
  callId: string | undefined,
  out: Diagnostic[],
): readonly T[] {
  try {
    return check();
  } catch (error) {
    out.push(unusableSchema(error, pointer, callId));
    return [];
  }
}

/** PARAM_INVALID for a tool schema that could not be compiled or run. */
function unusableSchema(error: unknown, pointer: string, callId: string | undefined): Diagnostic {
  const message = `the tool's schema cannot be used: ${(error as Error).message}`;
  return makeDiagnostic("PARAM_INVALID", message, pointer, { callId });
}
