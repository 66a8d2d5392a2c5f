import type { Diagnostic, DiagnosticCode } from "@obelisk/core";
import { DIAGNOSTIC_CODES } from "@obelisk/core";

/** Optional parts of a diagnostic. */
export interface DiagnosticExtras {
  /** The call it belongs to. */
  readonly callId?: string | undefined;
  /** A suggestion. */
  readonly hint?: string | undefined;
  /** Other calls involved. */
  readonly related?: readonly string[] | undefined;
}

/** Builds a diagnostic with the code's severity (undefined extras are left out). */
export function makeDiagnostic(
  code: DiagnosticCode,
  message: string,
  pointer: string,
  extras: DiagnosticExtras = {},
): Diagnostic {
  return {
    code,
    severity: DIAGNOSTIC_CODES[code],
    message,
    pointer,
    ...(extras.callId === undefined ? {} : { callId: extras.callId }),
    ...(extras.hint === undefined ? {} : { hint: extras.hint }),
    ...(extras.related === undefined ? {} : { related: extras.related }),
  };
}
