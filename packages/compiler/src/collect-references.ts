import type { Diagnostic, JsonValue, KindTable, Limits, PathSegment } from "@obelisk/core";
import { appendPointer, parseParameterString } from "@obelisk/core";
import type { ParamReference } from "./compiled-plan.js";
import { makeDiagnostic } from "./make-diagnostic.js";

/** What `collectReferences` needs to parse strings. */
export interface ReferenceParseOptions {
  readonly kinds: KindTable;
  readonly limits: Pick<Limits, "maxPathDepth">;
  readonly callId: string | undefined;
}

/**
 * Parses every string at any depth of a call's parameters (SPEC §2): references and templates are
 * collected in document order; malformed ones become REF_SYNTAX / REF_KIND_UNKNOWN /
 * REF_FORBIDDEN_SEGMENT at the string's pointer, suspicious literals REF_SUSPICIOUS warnings.
 */
export function collectReferences(
  params: Readonly<Record<string, JsonValue>>,
  callPointer: string,
  options: ReferenceParseOptions,
  out: Diagnostic[],
): ParamReference[] {
  const references: ParamReference[] = [];
  const visit = (value: JsonValue, location: PathSegment[], pointer: string): void => {
    if (typeof value === "string") {
      const reference = parseString(value, location, pointer, options, out);
      if (reference !== undefined) references.push(reference);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => {
        visit(item, [...location, index], appendPointer(pointer, index));
      });
    } else if (typeof value === "object" && value !== null) {
      for (const [key, item] of Object.entries(value))
        visit(item, [...location, key], appendPointer(pointer, key));
    }
  };
  for (const [key, value] of Object.entries(params)) visit(value, [key], appendPointer(callPointer, key));
  return references;
}

function parseString(
  text: string,
  location: PathSegment[],
  pointer: string,
  options: ReferenceParseOptions,
  out: Diagnostic[],
): ParamReference | undefined {
  const parsed = parseParameterString(text, options.kinds, options.limits);
  const callId = options.callId;
  if (!parsed.ok) {
    const { code, message, offset, hint } = parsed.issue;
    out.push(makeDiagnostic(code, `${message} (at character ${offset + 1})`, pointer, { callId, hint }));
    return undefined;
  }
  const value = parsed.value;
  if (value.type === "literal") {
    if (value.suspicious) {
      const hint =
        'write the whole value as a reference, wrap it as "{†…}" inside text, or escape it with "††"';
      out.push(
        makeDiagnostic("REF_SUSPICIOUS", "a literal string contains what looks like a reference", pointer, {
          callId,
          hint,
        }),
      );
    }
    return undefined;
  }
  return { location, pointer, value };
}
