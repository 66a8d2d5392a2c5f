import type { JsonObject, Path, RunId } from "@obelisk/core";
import { formatReference, getAtPath, isoTime } from "@obelisk/core";
import type { CallRecord, VariableMeta, WriteLogEntry } from "../store-types.js";
import { describeValue } from "./describe-value.js";
import { removeEmptyParents } from "./empty-parent.js";
import { schemaPins } from "./schema-pins.js";
import type { Eviction, ThreadChange, ThreadModel, VariableEntry } from "./thread-model.js";
import { TreeEditor } from "./tree-editor.js";

/** A reference to evict and why (`keepLastN`, `maxVariables`, `maxBytes`, `maxAgeMs`, `maxCallOutputs`, …). */
export interface EvictionRequest {
  readonly reference: string;
  readonly reason: string;
  /**
   * For an age limit: when the value passed it (its update time + the limit), which its tombstone keeps as
   * `evictedAt` — expiry happens on the next run or read, which would otherwise stamp the time of that read
   * (s32 review M2). Absent: the eviction's own time.
   */
  readonly atMs?: number;
}

/** The call a removal is logged as: a person's `unset` (its record), rather than the store's own lifecycle. */
export type RemovalSource = Pick<CallRecord, "runId" | "callId" | "tool">;

const lifecycleEntry = (
  seq: number,
  date: string,
  reason: string,
  op: "unset" | "reset",
  target?: { readonly path: Path; readonly reference: string },
  source?: RemovalSource,
): WriteLogEntry => ({
  seq,
  runId: source?.runId ?? ("obelisk.lifecycle" as RunId),
  call:
    source === undefined
      ? { id: "obelisk", tool: `obelisk.${reason}` }
      : { id: source.callId, tool: source.tool },
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
 * An evicted array element becomes `null` (a hole): no other element moves (decision record 0013). Parents
 * the evicted values left holding nothing go too when no variable sits at them (they were only created as
 * parents of writes below: decision record 0010), with an `unset` entry of their own. A state eviction that
 * would leave a state the thread's schema refuses is not made: the variables it needs stay (0013).
 */
export function planEviction(
  model: ThreadModel,
  requests: readonly EvictionRequest[],
  nowMs: number,
): ThreadChange {
  let active = requests;
  for (let round = 0; ; round++) {
    const change = planEvictionBatch(model, active, nowMs);
    const pinned = schemaPins(model, active, change.state, round);
    if (pinned === undefined) return change;
    active = active.filter((request) => !pinned.has(request));
  }
}

/**
 * One batch of evictions, whatever its size, in O(evicted × depth + size of the containers touched): the
 * state is edited copy on write once per container (not one copy of the state per eviction), and variables
 * are looked up in the model's index directly. Not checked against the state schema ({@link planEviction}
 * is). `source`: the call the `unset` entries are logged as (default: the store's lifecycle writer).
 */
export function planEvictionBatch(
  model: ThreadModel,
  requests: readonly EvictionRequest[],
  nowMs: number,
  source?: RemovalSource,
): ThreadChange {
  const date = isoTime(nowMs);
  const evicted = new Set<string>();
  const evictions: Eviction[] = [];
  const log: WriteLogEntry[] = [];
  const editor = new TreeEditor(model.state);
  const removed: Path[] = [];
  const holders = new Map<string, VariableEntry>();
  let seq = model.nextSeq;
  const evict = (entry: VariableEntry, { reason, atMs }: EvictionRequest): void => {
    evicted.add(entry.meta.reference);
    const evictedAt = atMs === undefined ? date : isoTime(atMs);
    evictions.push({ entry, tombstone: { reference: entry.meta.reference, evictedAt, reason } });
  };
  for (const request of requests) {
    const entry = evicted.has(request.reference) ? undefined : model.variables.get(request.reference);
    if (entry === undefined) continue;
    evict(entry, request);
    if (entry.meta.scope !== "state") continue;
    for (const below of model.trie.descendants(entry.path)) {
      const victim = evicted.has(below) ? undefined : model.variables.get(below);
      if (victim !== undefined) evict(victim, request);
    }
    const { path, meta } = entry;
    if (editor.remove(path)) removed.push(path);
    log.push(
      lifecycleEntry(seq++, date, request.reason, "unset", { path, reference: meta.reference }, source),
    );
    for (const above of model.trie.ancestors(path)) {
      const holder = model.variables.get(above);
      if (holder !== undefined) holders.set(above, holder);
    }
  }
  const isVariable = (path: Path): boolean => {
    const reference = model.trie.referenceAt(path);
    return reference !== undefined && !evicted.has(reference);
  };
  // containers the writes only created as parents go with them (logged, so a replay of the log agrees)
  const reason = requests[0]?.reason ?? "keepLastN";
  for (const parent of removeEmptyParents(editor, removed, isVariable)) {
    const reference = formatReference("state", parent);
    log.push(lifecycleEntry(seq++, date, reason, "unset", { path: parent, reference }, source));
  }
  const state = editor.root;
  const upserts: VariableEntry[] = [];
  for (const [reference, holder] of holders) {
    if (evicted.has(reference)) continue;
    const updated = withFacts(holder, state);
    if (updated !== undefined) upserts.push(updated);
  }
  return {
    state,
    log,
    upserts,
    drops: [],
    evictions,
    clearedTombstones: [],
    outputs: [],
    nextSeq: seq,
  };
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
    clearedTombstones: [],
    outputs: [],
    reset: true,
    nextSeq: model.nextSeq + 1,
  };
}
