import type { Diagnostic } from "@obelisk/core";
import { DIAGNOSTIC_CODES, resolvePointer } from "@obelisk/core";

/** Marker of the compiler's catch-all (an internal exception turned into a diagnostic): always a bug. */
const INTERNAL_FAILURE_HINT = "please report this plan as a bug";

/** The document pointers are resolved in: the parsed text (own `__proto__` keys kept), or the value itself. */
function documentOf(submitted: unknown): { readonly parsed: boolean; readonly value: unknown } {
  if (typeof submitted !== "string") return { parsed: true, value: submitted };
  try {
    return { parsed: true, value: JSON.parse(submitted) };
  } catch {
    return { parsed: false, value: undefined };
  }
}

/**
 * Problems with a list of diagnostics for a submitted document (empty when all is well): each code is in
 * DIAGNOSTIC_CODES with its severity, each pointer resolves in the document (or is ""), no internal failure,
 * and `ok` agrees with the absence of errors.
 */
export function diagnosticProblems(
  submitted: unknown,
  ok: boolean,
  diagnostics: readonly Diagnostic[],
): string[] {
  const problems: string[] = [];
  const document = documentOf(submitted);
  for (const diagnostic of diagnostics) {
    const label = `${diagnostic.code} at "${diagnostic.pointer}"`;
    if (!Object.hasOwn(DIAGNOSTIC_CODES, diagnostic.code)) problems.push(`unknown code: ${label}`);
    else if (DIAGNOSTIC_CODES[diagnostic.code] !== diagnostic.severity)
      problems.push(`wrong severity: ${label}`);
    if (typeof diagnostic.pointer !== "string") problems.push(`pointer is not a string: ${label}`);
    else if (diagnostic.pointer !== "") {
      if (!document.parsed) {
        problems.push(`pointer into unparseable text: ${label}`);
      } else if (!resolvePointer(document.value, diagnostic.pointer).found)
        problems.push(`pointer does not resolve: ${label}`);
    }
    if (diagnostic.hint === INTERNAL_FAILURE_HINT)
      problems.push(`internal compiler failure: ${diagnostic.message}`);
    if (typeof diagnostic.message !== "string" || diagnostic.message === "")
      problems.push(`no message: ${label}`);
  }
  const hasError = diagnostics.some((diagnostic) => diagnostic.severity === "error");
  if (ok === hasError) problems.push(`ok=${ok} but ${hasError ? "there are" : "there are no"} errors`);
  return problems;
}
