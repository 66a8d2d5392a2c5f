import type { Diagnostic } from "@obelisk/core";
import { makeDiagnostic } from "./make-diagnostic.js";
import type { RegisteredTool } from "./registered-tool.js";

/** What to add: the prescribed path of a `const` rule, the choices of an `enum`, the `pattern`. */
function missingOutputPathHint(rule: Readonly<Record<string, unknown>>): string {
  if (typeof rule.const === "string") return `add "_outputPath": ${JSON.stringify(rule.const)}`;
  if (Array.isArray(rule.enum))
    return `add "_outputPath": one of ${rule.enum.map((item) => JSON.stringify(item)).join(", ")}`;
  if (typeof rule.pattern === "string") return `add an "_outputPath" matching ${rule.pattern}`;
  return `add an "_outputPath" that tool's rule allows`;
}

/**
 * A call without `_outputPath` of a tool that declares an `outputPath` rule (SPEC §3, prescribed or
 * constrained paths) is OUTPUT_PATH_NOT_ALLOWED at the call: leaving the path out would write
 * `†calls.<id>` and bypass the rule. Always returns undefined (no output path).
 */
export function checkMissingOutputPath(
  callPointer: string,
  tool: RegisteredTool | undefined,
  callId: string | undefined,
  out: Diagnostic[],
): undefined {
  const rule = tool?.outputPathSchema;
  if (tool === undefined || rule === undefined) return undefined;
  const message = `tool "${tool.name}" writes only to the _outputPath its rule allows; this call has none`;
  out.push(
    makeDiagnostic("OUTPUT_PATH_NOT_ALLOWED", message, callPointer, {
      callId,
      hint: missingOutputPathHint(rule),
    }),
  );
  return undefined;
}
