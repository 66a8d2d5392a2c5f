import { ObeliskError } from "@obelisk/core";
import type { ValidationResult } from "obelisk";
import { EXIT, type ExitCode } from "./exit-codes.js";
import type { Output } from "./output.js";
import type { ParsedInput } from "./parse-input.js";
import type { PlanFile } from "./read-plan.js";
import { withPlanPositions } from "./render-diagnostics.js";
import { printDiagnostics, printVerdict } from "./render-validation.js";

/** The validation an engine's PLAN_INVALID error carries, or undefined for any other error. */
export function invalidPlanOf(error: unknown): ValidationResult | undefined {
  if (!ObeliskError.is(error) || error.code !== "PLAN_INVALID") return undefined;
  const data: unknown = error.data;
  return typeof data === "object" &&
    data !== null &&
    Array.isArray((data as { diagnostics?: unknown }).diagnostics)
    ? (data as ValidationResult)
    : undefined;
}

/**
 * Prints an invalid plan's diagnostics (json: `{ ok: false, planHash, diagnostics }`, each with its `line`
 * and `column` in the plan file unless `located` is false: a recorded plan has no file); exit 1, nothing run.
 * The diagnostics are printed as given: the caller makes them the CLI's (`forCli`).
 */
export function reportInvalid(
  output: Output,
  validation: ValidationResult,
  plan: PlanFile,
  input?: ParsedInput,
  located = true,
): ExitCode {
  if (output.format === "json") {
    const diagnostics = located ? withPlanPositions(validation, plan) : validation.diagnostics;
    output.json({ ok: false, planHash: validation.planHash, diagnostics });
  }
  printDiagnostics(output, validation, plan, input);
  printVerdict(output, validation);
  output.line(output.colors.dim("the plan was not run"));
  return EXIT.failed;
}
