import type { Diagnostic, OutputMethod, OutputTarget } from "@obelisk/core";
import { OUTPUT_METHODS } from "@obelisk/core";
import type { WriterEntry } from "./builder-types.js";
import { conflictDiagnostic } from "./conflict-diagnostic.js";
import type { PathIndex } from "./path-index.js";

const rankOf = (entry: WriterEntry): number => entry.index;

/**
 * OUTPUT_CONFLICT of a call `id` (undefined: one without a valid id) at `pointer` writing `alternatives`
 * with `method`, against the compiled calls' targets in `writers`: for each target, the earliest compiled
 * writer it conflicts with, one diagnostic per distinct other call, at most `max`. Linear: n writers of
 * one path give n − 1. True when one was found.
 */
export function writerConflicts(
  writers: PathIndex<WriterEntry>,
  id: string | undefined,
  pointer: string,
  alternatives: readonly (readonly OutputTarget[])[],
  method: OutputMethod,
  max: number,
  out: Diagnostic[],
): boolean {
  let reported: Set<string> | undefined;
  const accumulating = OUTPUT_METHODS[method].accumulating;
  for (const targets of alternatives) {
    for (const target of targets) {
      if (reported !== undefined && reported.size >= max) return true;
      const first = writers.earliestCandidate(target.kind, target.path, accumulating, rankOf);
      // a call never conflicts with itself (a repeated `_id`: CALL_ID_DUPLICATE says that)
      if (first === undefined || first.callId === id || reported?.has(first.callId)) continue;
      reported ??= new Set();
      reported.add(first.callId);
      out.push(conflictDiagnostic({ id, pointer }, target, { id: first.callId, pointer: "" }, first.target));
    }
  }
  return reported !== undefined;
}
