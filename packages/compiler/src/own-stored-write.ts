import type { Diagnostic } from "@obelisk/core";
import { formatReference } from "@obelisk/core";
import type { CallEntry } from "./builder-types.js";
import type { PlanBuilder } from "./plan-builder.js";
import { storedStateWrites } from "./stored-state-writes.js";

/** Automatic ids (`<tool>$<n>`) hold a `$`, which a given `_id` cannot (CALL_ID_INVALID). */
const automatic = (id: string): boolean => id.includes("$");

/**
 * True when `writer` may be this very call: the same tool, and the same id — or both ids automatic, since a
 * re-sent plan's unnamed call gets a new one (`echo$2` for the `echo$1` that wrote; decision 0102).
 */
function sameCall(writer: { readonly callId: string; readonly tool: string }, entry: CallEntry): boolean {
  if (writer.tool !== entry.tool.name) return false;
  const id = entry.call.id;
  return writer.callId === id || (automatic(id) && automatic(writer.callId));
}

/**
 * True when the thread's stored value at one of the call's `†state` targets was last written by this very
 * call (see `sameCall`; the host's `stateWriter`): the state already holds its write (a re-sent plan, or a
 * resume after an interruption), so judging the call against it judges the call by its own result
 * (decision 0114). A host answer that throws is unknown (false).
 */
function wroteItself(builder: PlanBuilder, entry: CallEntry): boolean {
  const writerOf = builder.settings.context.stateWriter;
  if (writerOf === undefined) return false;
  for (const targets of entry.alternatives)
    for (const target of targets) {
      if (target.kind !== "state") continue;
      try {
        const writer = writerOf(formatReference("state", target.path));
        if (writer !== undefined && sameCall(writer, entry)) return true;
      } catch {
        // unknown
      }
    }
  return false;
}

/**
 * `storedStateWrites` (decision 0091), except for a call the stored state holds the write of (see
 * `wroteItself`, asked only once a write was found refused): its diagnostics are then taken back. True
 * when one was kept.
 */
export function storedStateRefusals(builder: PlanBuilder, entry: CallEntry, out: Diagnostic[]): boolean {
  const before = out.length;
  if (!storedStateWrites(builder, entry, out)) return false;
  if (!wroteItself(builder, entry)) return true;
  out.length = before;
  return false;
}
