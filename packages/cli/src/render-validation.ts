import type { Diagnostic } from "@obelisk/core";
import { plural } from "@obelisk/core";
import type { ValidationResult } from "obelisk";
import { blamesMissingInput, type CliDiagnostic } from "./cli-diagnostics.js";
import { displayText } from "./display-text.js";
import type { Output } from "./output.js";
import type { ParsedInput } from "./parse-input.js";
import type { CheckedAgainst, PlanFile } from "./read-plan.js";
import { renderDiagnosticsText } from "./render-diagnostics.js";

/**
 * Prints the diagnostics of a plan like a compiler (file:line:col, source line, caret, hint); those about
 * `--input` are located in it.
 */
export function printDiagnostics(
  output: Output,
  result: Pick<ValidationResult, "diagnostics" | "compiled">,
  plan: PlanFile,
  input?: ParsedInput,
): void {
  if (result.diagnostics.length === 0) return;
  output.line(renderDiagnosticsText(result, plan, output.colors, input).trimEnd());
  output.line();
}

/** Counts errors and warnings. */
export function tally(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number } {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  return { errors, warnings: diagnostics.length - errors };
}

/**
 * Prints the verdict line of a validation: valid / N errors, M warnings — `input is missing` when every error
 * is caused by a missing `--input` (decision 0103), `input is invalid` when every error is the `--input`'s (it
 * breaks a schema: located in the input), `plan is invalid` otherwise.
 */
export function printVerdict(output: Output, result: ValidationResult): void {
  const c = output.colors;
  const { errors, warnings } = tally(result.diagnostics);
  const w = plural(warnings, "warning");
  if (result.ok)
    output.line(`${c.green(c.bold("✓ plan is valid"))}${warnings > 0 ? c.yellow(` (${w})`) : ""}`);
  else {
    const errorsOnly = (blames: (diagnostic: CliDiagnostic) => boolean): boolean =>
      errors > 0 &&
      (result.diagnostics as readonly CliDiagnostic[]).every((d) => d.severity !== "error" || blames(d));
    const what = errorsOnly(blamesMissingInput)
      ? "input is missing"
      : errorsOnly((diagnostic) => diagnostic.input !== undefined)
        ? "input is invalid"
        : "plan is invalid";
    output.line(c.red(c.bold(`✗ ${what}: ${plural(errors, "error")}, ${w}`)));
  }
}

/** Prints what the plan was checked against: the thread and its store, or an empty thread (no `--thread`). */
export function printCheckedAgainst(output: Output, against: CheckedAgainst): void {
  const c = output.colors;
  output.line(
    against.threadId === undefined
      ? c.dim("checked against an empty thread (give --thread <id> to check against a thread's stored state)")
      : c.dim(`checked against thread ${displayText(against.threadId)} in ${displayText(against.store)}`),
  );
}
