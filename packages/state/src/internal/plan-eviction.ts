import type { JsonObject, Path, RunId } from "@obelisk/core";
import { formatReference, getAtPath, isoTime } from "@obelisk/core";
import type { VariableMeta, WriteLogEntry } from "../store-types.js";
import { describeValue } from "./describe-value.js";
import { emptyParent } from "./empty-parent.js";
import { ModelOverlay } from "./model-overlay.js";
import type { Eviction, ThreadChange, ThreadModel, VariableEntry } from "./thread-model.js";
import { unsetAtPath } from "./unset-at-path.js";

/** A reference to evict and why (`keepLastN`, `maxVariables`, `maxBytes`, `maxAgeMs`, `maxCallOutputs`, …). */
export interface EvictionRequest {
  readonly reference: string;
  readonly reason: string;
}

const lifecycleEntry = (
  seq: number,
  date: string,
  reason: string,
  op: "unset" | "reset",
  target?: { readonly path: Path; readonly reference: string },
): WriteLogEntry => ({
  seq,
  runId: "obelisk.lifecycle" as RunId,
  call: { id: "obelisk", tool: `obelisk.${reason}` },
  date,
  write: {
    path: target?.path ?? [],
    method: "set",
    value: null,
    reference: target?.reference ?? "†state",
  },
  op,
});

/** New value facts for a variable whose content shrank because something below it was evicted (order kept). */
function withFacts(entry: VariableEntry, state: JsonObject): VariableEntry | undefined {
  const value = getAtPath(state, entry.path);
  if (!value.found) return undefined;
  const { count: _count, countUnit: _unit, ...kept } = entry.meta;
  const meta: VariableMeta = { ...kept, ...describeValue(value.value), version: entry.meta.version + 1 };
  return { ...entry, meta };
}

/**
 * Plans the eviction of variables: each leaves a tombstone; a state variable also takes the variables below
 * it, its value is removed from the folded state and an `unset` entry is logged, so fold and variables agree.
 * Parents the evicted value left empty go too when no variable sits at them (they were only created as
 * parents of writes below: decision record 0010), with an `unset` entry of their own.
 */
export function planEviction(
  model: ThreadModel,
  requests: readonly EvictionRequest[],
  nowMs: number,
): ThreadChange {
  const date = isoTime(nowMs);
  const overlay = new ModelOverlay(model);
  const evictions: Eviction[] = [];
  const log: WriteLogEntry[] = [];
  let state = model.state;
  let seq = model.nextSeq;
  for (const request of requests) {
    const entry = overlay.get(request.reference);
    if (entry === undefined) continue;
    const victims = entry.meta.scope === "state" ? [entry, ...overlay.descendants(entry.path)] : [entry];
    for (const victim of victims) {
      overlay.remove(victim.meta.reference);
      evictions.push({
        entry: victim,
        tombstone: { reference: victim.meta.reference, evictedAt: date, reason: request.reason },
      });
    }
    if (entry.meta.scope !== "state") continue;
    state = unsetAtPath(state, entry.path);
    const { path, meta } = entry;
    log.push(lifecycleEntry(seq++, date, request.reason, "unset", { path, reference: meta.reference }));
    // containers the write only created as parents go with it (logged, so a replay of the log agrees)
    const holders = overlay.ancestors(path);
    const parent = emptyParent(state, path, (length) => holders.some((held) => held.path.length === length));
    if (parent !== undefined) {
      state = unsetAtPath(state, parent);
      const reference = formatReference("state", parent);
      log.push(lifecycleEntry(seq++, date, request.reason, "unset", { path: parent, reference }));
    }
    for (const above of holders) {
      const updated = withFacts(above, state);
      if (updated !== undefined) overlay.put(updated);
    }
  }
  const { upserts } = overlay.result();
  return { state, log, upserts, drops: [], evictions, outputs: [], nextSeq: seq };
}

/** Plans `reset`: state, outputs, variables and write log cleared, tombstones (reason `reset`) for every variable. */
export function planReset(model: ThreadModel, nowMs: number): ThreadChange {
  const date = isoTime(nowMs);
  const evictions = [...model.variables.values()].map((entry) => ({
    entry,
    tombstone: { reference: entry.meta.reference, evictedAt: date, reason: "reset" },
  }));
  const log = [lifecycleEntry(model.nextSeq, date, "reset", "reset")];
  const state = Object.freeze({}) as JsonObject;
  return {
    state,
    log,
    upserts: [],
    drops: [],
    evictions,
    outputs: [],
    reset: true,
    nextSeq: model.nextSeq + 1,
  };
}
