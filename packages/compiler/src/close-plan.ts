import type { Diagnostic, SourceMap } from "@obelisk/core";
import { appendAll } from "./append-all.js";
import { automaticIdReferences } from "./automatic-id-references.js";
import { bareSpellingsOfWrittenPaths } from "./bare-spellings.js";
import type { CallEntry } from "./builder-types.js";
import { commitOrderSteps } from "./commit-order.js";
import type { CompiledCall } from "./compiled-plan.js";
import { cycleHint, cycleText, readsByWriters } from "./cycle-text.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import { storedStateRefusals } from "./own-stored-write.js";
import { phantomConflicts } from "./phantom-conflicts.js";
import type { PlanBuilder } from "./plan-builder.js";
import { analyzeDag } from "./plan-dag.js";
import { referenceTypeMismatches } from "./reference-types.js";
import { sortDiagnostics } from "./sort-diagnostics.js";
import { mayReadUndeclared, startUndeclaredPass, undeclaredReferences } from "./undeclared-references.js";
import { unreachableCall, unreachableDownstream } from "./unreachable-calls.js";
import { phantomUnresolved, unresolvedReferences } from "./unresolved-references.js";
import { CONDITIONAL_OPERAND, linksSummary, UNLINKED_OPERAND } from "./writer-table.js";
import type { WrittenTypesCache } from "./written-types.js";

/** What the plan-wide passes produce. */
export interface ClosedPlan {
  readonly ok: boolean;
  readonly diagnostics: readonly Diagnostic[];
  readonly calls: readonly CompiledCall[];
  /** Remaining critical path of every call (by cost). */
  readonly criticalPaths: ReadonlyMap<string, number>;
  readonly autoIdsUsed: number;
}

function cycleDiagnostics(builder: PlanBuilder, cycles: readonly string[][]): Diagnostic[] {
  return cycles.map((path) => {
    const start = builder.entries.get(path[0] as string);
    const text = cycleText(path);
    const pointer = start?.call.pointer ?? "";
    const steps = commitOrderSteps(path, builder.entries);
    const message = `calls form a cycle: ${text}${steps === undefined ? "" : ` (${steps.explanation})`}`;
    return makeDiagnostic("CYCLE", message, pointer, {
      callId: path[0],
      hint:
        steps === undefined ? cycleHint(path, readsByWriters(builder.entries)) : `${text}: ${steps.advice}`,
      related: path.slice(0, -1),
    });
  });
}

/**
 * Runs the plan-wide passes over a builder (cycles, REF_UNRESOLVED, REF_TYPE_MISMATCH, UNREACHABLE, reads
 * of automatic ids and of undeclared names near declared ones, references spelt without the dagger),
 * computes every call's critical path and returns the diagnostics in document order.
 */
export function closePlan(
  builder: PlanBuilder,
  extra: readonly Diagnostic[],
  document: unknown,
  sourceMap?: SourceMap,
): ClosedPlan {
  const dag = analyzeDag(builder.nodes, builder.planOrderIsTopological);
  const all: Diagnostic[] = [...extra, ...builder.diagnostics, ...cycleDiagnostics(builder, dag.cycles)];
  const written: WrittenTypesCache = new Map();
  const autoNamedTools = builder.autoNamedTools.size > 0 ? builder.autoNamedTools : undefined;
  const undeclared = mayReadUndeclared(builder);
  startUndeclaredPass(builder);
  // calls known never to run: their readers cannot either (filled below; rare, so usually left empty)
  let dead: Map<string, string> | undefined;
  // the entries as a list (the same calls in the same order as `entries`), without an iterator
  const entries = builder.nodes;
  const checkStored = !builder.options.refuseInvalid && builder.settings.context.state !== undefined;
  for (let at = 0; at < entries.length; at++) {
    const entry = entries[at] as CallEntry;
    if (entry.tool.latent && !entry.call.hasOutput) {
      dead ??= new Map();
      dead.set(entry.call.id, "is latent without _output (deferred)");
    }
    if (autoNamedTools !== undefined) automaticIdReferences(builder, entry, autoNamedTools, all);
    // Most calls have a writer for every operand and no conditional one: their references are not walked
    // for REF_UNRESOLVED and UNREACHABLE (see `linksSummary`).
    const summary = linksSummary(entry.writers);
    // With typed writers, a linked operand may still be unresolved: its writers' outputs cannot hold it.
    if ((summary & UNLINKED_OPERAND) !== 0 || builder.typedWriters)
      appendAll(all, unresolvedReferences(builder, entry));
    appendAll(all, referenceTypeMismatches(builder, entry, written));
    // streaming checked it as the call arrived (no later call can change the answer: decision 0091)
    if (checkStored) storedStateRefusals(builder, entry, all);
    if (undeclared) undeclaredReferences(builder, entry, all);
    const unreachable = (summary & CONDITIONAL_OPERAND) === 0 ? undefined : unreachableCall(entry);
    if (unreachable !== undefined) {
      all.push(unreachable);
      dead ??= new Map();
      dead.set(entry.call.id, "can never run");
    }
  }
  if (dead !== undefined) unreachableDownstream(builder.entries, dead, all);
  bareSpellingsOfWrittenPaths(builder, all);
  // Calls that could not be compiled still conflict and read (batch only; none in a valid plan).
  phantomConflicts(builder, builder.phantoms, all);
  for (const phantom of builder.phantoms) phantomUnresolved(builder, phantom, all);
  const criticalPaths = dag.criticalPaths;
  const diagnostics = sortDiagnostics(all, document, sourceMap);
  return {
    ok: !diagnostics.some((diagnostic) => diagnostic.severity === "error"),
    diagnostics,
    calls: builder.calls,
    criticalPaths,
    autoIdsUsed: builder.autoIdsUsed,
  };
}
