import type { Diagnostic, OutputTarget } from "@obelisk/core";
import { OUTPUT_METHODS } from "@obelisk/core";
import type { PhantomCall } from "./builder-types.js";
import { conflictDiagnostic } from "./conflict-diagnostic.js";
import { PathIndex } from "./path-index.js";
import type { PlanBuilder } from "./plan-builder.js";

/** At most this many OUTPUT_CONFLICT diagnostics per call that could not be compiled. */
const MAX_CONFLICTS = 3;

/** One target of a call that could not be compiled, in the index of such writers. */
interface PhantomWriter {
  readonly call: PhantomCall;
  /** Its place among the calls that could not be compiled (plan order). */
  readonly rank: number;
  readonly target: OutputTarget;
  readonly accumulating: boolean;
}

const rankOf = (writer: PhantomWriter): number => writer.rank;

/**
 * OUTPUT_CONFLICT (batch only) of each call that could not be compiled (an unknown tool, a bad or repeated
 * `_id`), at its `_outputPath`: with each compiled call writing an overlapping path, earlier or later in
 * the plan (a compiled call never checks such a call: the pair is reported here once), and with each
 * earlier call that could not be compiled either (the pair is reported at the later one, naming the
 * earliest such writer of each target, as compiled calls are). So a conflict is reported with the calls'
 * other errors, not after their fix (decision 0091). At most `MAX_CONFLICTS` per call, one per other call;
 * none against a call with the same id (CALL_ID_DUPLICATE says that). Nothing to do in a valid plan.
 */
export function phantomConflicts(
  builder: PlanBuilder,
  phantoms: readonly PhantomCall[],
  out: Diagnostic[],
): void {
  // Only built when two such calls write: most invalid plans have one, or none with an _outputPath.
  let index: PathIndex<PhantomWriter> | undefined;
  let writing = 0;
  for (const phantom of phantoms) if (phantom.outputPath !== undefined) writing++;
  if (writing > 1) index = new PathIndex<PhantomWriter>((writer) => !writer.accumulating);
  for (let rank = 0; rank < phantoms.length; rank++) {
    const phantom = phantoms[rank] as PhantomCall;
    const outputPath = phantom.outputPath;
    if (outputPath === undefined) continue;
    const before = out.length;
    builder.reportConflicts(
      phantom.id,
      phantom.pointer,
      outputPath.alternatives,
      phantom.method,
      MAX_CONFLICTS,
      out,
    );
    if (index === undefined) continue;
    const accumulating = OUTPUT_METHODS[phantom.method].accumulating;
    earlierPhantomConflicts(index, phantom, accumulating, MAX_CONFLICTS - (out.length - before), out);
    for (const targets of outputPath.alternatives)
      for (const target of targets)
        index.add(target.kind, target.path, { call: phantom, rank, target, accumulating });
  }
}

/** OUTPUT_CONFLICT of `phantom` with the earliest earlier phantom writer of each of its targets (at most `max`). */
function earlierPhantomConflicts(
  index: PathIndex<PhantomWriter>,
  phantom: PhantomCall,
  accumulating: boolean,
  max: number,
  out: Diagnostic[],
): void {
  let reported: Set<PhantomCall> | undefined;
  for (const targets of phantom.outputPath?.alternatives ?? []) {
    for (const target of targets) {
      if ((reported?.size ?? 0) >= max) return;
      const first = index.earliestCandidate(target.kind, target.path, accumulating, rankOf);
      if (first === undefined || reported?.has(first.call)) continue;
      // none against a call with its own repeated id (CALL_ID_DUPLICATE says that)
      if (phantom.id !== undefined && first.call.id === phantom.id) continue;
      reported ??= new Set();
      reported.add(first.call);
      out.push(conflictDiagnostic(phantom, target, first.call, first.target));
    }
  }
}
