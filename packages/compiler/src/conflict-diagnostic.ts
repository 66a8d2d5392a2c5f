import type { Diagnostic, OutputTarget } from "@obelisk/core";
import { appendPointer } from "@obelisk/core";
import type { Clash } from "./co-writer-clash.js";
import { makeDiagnostic } from "./make-diagnostic.js";

/** The hint of every OUTPUT_CONFLICT. */
const CONFLICT_HINT =
  "one writer per path: write to different paths, or use the same path with an accumulating _outputMethod (push, concat, merge, assign) in both";

/** One side of a conflict: a call by its id (undefined: one without a valid id, named by its place). */
interface ConflictSide {
  readonly id: string | undefined;
  readonly pointer: string;
}

const nameOf = (side: ConflictSide): string =>
  side.id === undefined ? `the call at ${side.pointer}` : `"${side.id}"`;

/**
 * OUTPUT_CONFLICT of the call `self` writing `target` with the earlier-reported `other` writing `otherTarget`,
 * at `self`'s `_outputPath`; `related` lists the ids both have. `clash`: why two accumulating co-writers of
 * one path cannot both apply (see `coWriterClash`).
 */
export function conflictDiagnostic(
  self: ConflictSide,
  target: OutputTarget,
  other: ConflictSide,
  otherTarget: OutputTarget,
  clash?: Clash,
): Diagnostic {
  const paths = target.text === otherTarget.text ? target.text : `${otherTarget.text} and ${target.text}`;
  const calls =
    other.id === undefined
      ? `${nameOf(other)} and ${nameOf(self)}`
      : `calls ${nameOf(other)} and ${nameOf(self)}`;
  const related: string[] = [];
  if (other.id !== undefined) related.push(other.id);
  if (self.id !== undefined) related.push(self.id);
  return makeDiagnostic(
    "OUTPUT_CONFLICT",
    clash === undefined ? `${calls} both write ${paths}` : `${calls} both write ${paths}: ${clash.reason}`,
    appendPointer(self.pointer, "_outputPath"),
    {
      callId: self.id,
      hint: clash?.hint ?? CONFLICT_HINT,
      related: related.length === 0 ? undefined : related,
    },
  );
}
