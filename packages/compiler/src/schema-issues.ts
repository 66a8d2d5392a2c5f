import type { Diagnostic } from "@obelisk/core";
import { appendPointer, didYouMean } from "@obelisk/core";
import { makeDiagnostic } from "./make-diagnostic.js";
import type { SchemaIssue } from "./schema-validator.js";

const COMBINATORS = new Set(["anyOf", "oneOf", "not", "if", "contains", "uniqueItems", "enum", "const"]);
const GROUPING = new Set(["anyOf", "oneOf", "not"]);

function isAncestor(ancestor: string, pointer: string): boolean {
  return ancestor === "" || pointer.startsWith(`${ancestor}/`);
}

/**
 * Keeps the issues that concern literal values: drops issues at a reference's position (references are
 * type-checked instead), combinator issues above one, and the sub-issues of `anyOf` / `oneOf` / `not`
 * (one diagnostic per violation: the combinator stands for its branches).
 */
export function literalIssues(
  issues: readonly SchemaIssue[],
  referencePointers: readonly string[],
): SchemaIssue[] {
  const grouping = issues.filter((issue) => GROUPING.has(issue.keyword)).map((issue) => issue.schemaPath);
  return issues.filter((issue) => {
    if (grouping.some((path) => issue.schemaPath.startsWith(`${path}/`))) return false;
    for (const reference of referencePointers) {
      if (issue.instancePath === reference || isAncestor(reference, issue.instancePath)) return false;
      if (isAncestor(issue.instancePath, reference) && COMBINATORS.has(issue.keyword)) return false;
    }
    return true;
  });
}

/** Translates parameter issues: required → PARAM_MISSING, closed schema → PARAM_UNKNOWN, others PARAM_INVALID. */
export function paramDiagnostics(
  issues: readonly SchemaIssue[],
  callPointer: string,
  knownParams: readonly string[],
  callId: string | undefined,
): Diagnostic[] {
  return issues.map((issue) => {
    const at = callPointer + issue.instancePath;
    const where = issue.instancePath === "" ? "the call" : issue.instancePath.slice(1);
    if (issue.keyword === "required") {
      const name = String(issue.params.missingProperty);
      return makeDiagnostic("PARAM_MISSING", `missing required parameter "${name}" in ${where}`, at, {
        callId,
      });
    }
    const extra = issue.params.additionalProperty ?? issue.params.unevaluatedProperty;
    if (
      (issue.keyword === "additionalProperties" || issue.keyword === "unevaluatedProperties") &&
      extra !== undefined
    ) {
      const name = String(extra);
      const hint = issue.instancePath === "" ? didYouMean(name, knownParams) : undefined;
      const message = `unknown parameter "${name}" (the schema is closed)`;
      return makeDiagnostic("PARAM_UNKNOWN", message, appendPointer(at, name), { callId, hint });
    }
    return makeDiagnostic("PARAM_INVALID", `${where}: ${issue.message}`, at, { callId });
  });
}

/** Translates issues of a latent call's `_output` (PARAM_INVALID at `/…/_output` + the value's path). */
export function outputDiagnostics(
  issues: readonly SchemaIssue[],
  outputPointer: string,
  callId: string | undefined,
): Diagnostic[] {
  const kept = literalIssues(issues, []);
  return kept.map((issue) =>
    makeDiagnostic(
      "PARAM_INVALID",
      `_output${issue.instancePath}: ${issue.message}`,
      outputPointer + issue.instancePath,
      {
        callId,
      },
    ),
  );
}
