import type { Diagnostic, JsonObject, JsonValue, KindTable, Limits, PathSegment } from "@obelisk/core";
import {
  hasSuspiciousReference,
  parseParameterString,
  pointerFromPath,
  TOOL_OUTPUT_PREFIX,
} from "@obelisk/core";
import { makeDiagnostic } from "./make-diagnostic.js";
import { misusedToolOutputAlias } from "./misused-tool-output-alias.js";

/** What `checkLiteralOutput` needs. */
export interface LiteralOutputOptions {
  readonly kinds: KindTable;
  readonly limits: Pick<Limits, "maxPathDepth">;
  readonly callId: string | undefined;
}

const HINT =
  "_output is a literal: it is stored exactly as written and never resolved; give the value itself, or use a tool that computes it";

/**
 * REF_SUSPICIOUS (warning) at every string inside a latent call's `_output` that a parameter would read
 * as a reference, a template or a `$tool_output` alias, or that contains `†<known kind>.` (SPEC §2 rule 4):
 * `_output` is the value itself, so `"†input.user"` there is stored as those characters. Only strings
 * holding a dagger or starting with `$tool_output.` are parsed; a latent call's `_output` is visited once.
 */
export function checkLiteralOutput(
  value: JsonValue,
  outputPointer: string,
  options: LiteralOutputOptions,
  out: Diagnostic[],
): void {
  visit(value, [], outputPointer, options, out);
}

function visit(
  value: JsonValue,
  location: PathSegment[],
  base: string,
  options: LiteralOutputOptions,
  out: Diagnostic[],
): void {
  if (typeof value === "string") {
    if (looksLikeReference(value, options)) {
      const message = "a string in _output looks like a reference, but _output is stored literally";
      out.push(
        makeDiagnostic("REF_SUSPICIOUS", message, base + pointerFromPath(location), {
          callId: options.callId,
          hint: HINT,
        }),
      );
    }
  } else if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      location.push(index);
      visit(value[index] as JsonValue, location, base, options, out);
      location.pop();
    }
  } else if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) {
      location.push(key);
      visit((value as JsonObject)[key] as JsonValue, location, base, options, out);
      location.pop();
    }
  }
}

function looksLikeReference(text: string, options: LiteralOutputOptions): boolean {
  if (misusedToolOutputAlias(text) !== undefined) return true;
  if (text.indexOf("†") === -1 && !text.startsWith(TOOL_OUTPUT_PREFIX)) return false;
  const parsed = parseParameterString(text, options.kinds, options.limits);
  if (!parsed.ok) return hasSuspiciousReference(text, 0, text.length, options.kinds);
  const parsedValue = parsed.value;
  return parsedValue.type !== "literal" || parsedValue.suspicious;
}
