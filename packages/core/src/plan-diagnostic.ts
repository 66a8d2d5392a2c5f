import type { Diagnostic } from "./diagnostic.js";
import type { DiagnosticCode } from "./diagnostic-codes.js";
import { severityOf } from "./diagnostic-codes.js";

/** Builds a diagnostic with the code's severity (internal helper for document-level checks). */
export function planDiagnostic(
  code: DiagnosticCode,
  message: string,
  pointer: string,
  hint?: string,
): Diagnostic {
  return hint === undefined
    ? { code, severity: severityOf(code), message, pointer }
    : { code, severity: severityOf(code), message, pointer, hint };
}
