import type { Diagnostic, OutputTarget } from "@obelisk/core";
import { appendPointer } from "@obelisk/core";
import type { PhantomCall, WriterEntry } from "./builder-types.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import type { PlanBuilder } from "./plan-builder.js";

/** The hint of every OUTPUT_CONFLICT. */
export const CONFLICT_HINT =
  "one writer per path: write to different paths, or use the same path with an accumulating _outputMethod (push, concat, merge, assign) in both";

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
  let reported: Set<string> | undefined;
  for (const targets of outputPath.alternatives)
    for (const target of targets) {
      const other = builder.conflictingWriter(target, phantom.method);
      if (other === undefined || other.callId === phantom.id || reported?.has(other.callId)) continue;
      reported ??= new Set();
      reported.add(other.callId);
      out.push(conflict(phantom, target, other));
      if (reported.size >= MAX_CONFLICTS) return;
    }
}

function conflict(phantom: PhantomCall, target: OutputTarget, other: WriterEntry): Diagnostic {
  const self = phantom.id === undefined ? `the call at ${phantom.pointer}` : `"${phantom.id}"`;
  const paths = target.text === other.target.text ? target.text : `${other.target.text} and ${target.text}`;
  return makeDiagnostic(
    "OUTPUT_CONFLICT",
    `calls "${other.callId}" and ${self} both write ${paths}`,
    appendPointer(phantom.pointer, "_outputPath"),
    {
      callId: phantom.id,
      hint: CONFLICT_HINT,
      related: phantom.id === undefined ? [other.callId] : [other.callId, phantom.id],
    },
  );
}
