import type { Diagnostic } from "@obelisk/core";
import type { CallEntry } from "./builder-types.js";
import type { PlanBuilder } from "./plan-builder.js";
import { referenceTypeMismatches } from "./reference-types.js";
import { unresolvedReferences } from "./unresolved-references.js";

/**
 * Streaming: the reference checks batch `compile` makes at close whose answer is known when a call arrives,
 * added to `out`; true when one is an error (the call is refused). REF_TYPE_MISMATCH against the writers
 * added so far, the input (given or its schemas), the state schema and a stored value nothing writes yet
 * (the stream reads it at once); REF_UNRESOLVED only for paths no later call can write (`†input`, host
 * kinds). A reference whose writer has not arrived is unknown: no diagnostic (close judges it again).
 */
export function knownReferenceDiagnostics(
  builder: PlanBuilder,
  entry: CallEntry,
  out: Diagnostic[],
): boolean {
  const found = [
    ...unresolvedReferences(builder, entry, true),
    ...referenceTypeMismatches(builder, entry, new Map(), true),
  ];
  for (const diagnostic of found) out.push(diagnostic);
  return found.some((diagnostic) => diagnostic.severity === "error");
}
