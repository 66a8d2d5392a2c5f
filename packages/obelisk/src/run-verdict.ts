import type { CompiledPlan } from "@obelisk/compiler";
import { type Diagnostic, planNotApproved } from "@obelisk/core";
import type { RunOptions, ValidationResult } from "./engine-types.js";
import { planInvalidError } from "./plan-invalid-error.js";
import { checkRerunIds } from "./rerun-option.js";

/**
 * A compile's verdict for a run: PLAN_INVALID (a resumed stream's unresolved references apart: they fail
 * their own calls), PLAN_NOT_APPROVED when its hash is not `approvedHash`, and `rerun`'s ids checked.
 */
export function runVerdict(
  validation: ValidationResult,
  options: RunOptions,
  streamed: boolean,
): ValidationResult {
  // A stream's calls are resumed as the stream ran them: a reference nothing among them writes fails
  // its own call REF_UNRESOLVED (as at close), the other calls run.
  let checked = validation;
  if (!checked.ok && streamed && onlyUnresolved(checked.diagnostics))
    checked = { ...checked, ok: true, compiled: runnable(checked.compiled) };
  if (!checked.ok) {
    const { ok, planHash, diagnostics } = checked;
    throw planInvalidError(diagnostics, { ok, planHash, diagnostics });
  }
  if (options.approvedHash !== undefined && options.approvedHash !== checked.planHash) {
    throw planNotApproved(checked.planHash, String(options.approvedHash));
  }
  checkRerunIds(options.rerun, checked.compiled);
  return checked;
}

/** The compiled plan marked valid, its lazy `graph` getter kept as a getter (a spread would build it). */
function runnable(compiled: CompiledPlan): CompiledPlan {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(compiled)) as CompiledPlan;
  return Object.assign(copy, { ok: true });
}

/** True when every error among `diagnostics` is REF_UNRESOLVED (the run's calls decide those at run time). */
function onlyUnresolved(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.every(
    (diagnostic) => diagnostic.severity !== "error" || diagnostic.code === "REF_UNRESOLVED",
  );
}
