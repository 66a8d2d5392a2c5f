import type { Diagnostic } from "@obelisk/core";
import type { PhantomCall } from "./builder-types.js";
import type { PlanBuilder } from "./plan-builder.js";

/** At most this many OUTPUT_CONFLICT diagnostics per call that could not be compiled. */
const MAX_CONFLICTS = 3;

/**
 * OUTPUT_CONFLICT (batch only) between a call that could not be compiled (an unknown tool, a bad or
 * repeated `_id`) and each compiled call writing an overlapping path, earlier or later in the plan (a
 * compiled call never checks such a call: the pair is reported here once, at its `_outputPath`), so the
 * conflict is reported with its other errors, not after its fix. One per other call; none against a call
 * with the same id (CALL_ID_DUPLICATE says that).
 */
export function phantomConflicts(builder: PlanBuilder, phantom: PhantomCall, out: Diagnostic[]): void {
  const outputPath = phantom.outputPath;
  if (outputPath === undefined) return;
  builder.reportConflicts(
    phantom.id,
    phantom.pointer,
    outputPath.alternatives,
    phantom.method,
    MAX_CONFLICTS,
    out,
  );
}
