import type { JsonObject, JsonValue, Path, ThreadId } from "@obelisk/core";
import type {
  CallRecord,
  StateWrite,
  ThreadInfo,
  Tombstone,
  VariableMeta,
  WriteLogEntry,
} from "../store-types.js";
import {
  freezeState,
  noteUnfrozenWrites,
  noUnfrozenNodes,
  type UnfrozenNodes,
  unknownNodes,
} from "./frozen-state.js";
import { PathTrie } from "./path-trie.js";
import type { StateValidator } from "./state-validator.js";

/** A variable as cached per thread: its metadata, its path and its update order. */
export interface VariableEntry {
  /** Public metadata. */
  readonly meta: VariableMeta;
  /** State path (scope `state`) or `[callId]` (scope `calls`). */
  readonly path: Path;
  /** Update order: larger is more recent (a thread sequence number). */
  readonly touch: number;
  /** `updatedAt` in epoch ms. */
  readonly updatedMs: number;
}

/** The in-memory view of one thread every backend keeps: folded state, variables, next sequence number. */
export interface ThreadModel {
  /** Thread id. */
  readonly threadId: ThreadId;
  /** Thread information. */
  info: ThreadInfo;
  /** Compiled state schema, if the thread has one. */
  validator: StateValidator | undefined;
  /** Folded state: frozen when read (`readState`); commits change its unfrozen nodes in place. */
  state: JsonObject;
  /**
   * Where the state may hold nodes not frozen yet (written by commits since the state was last frozen);
   * unknown after a load or any other change: the next read walks the root.
   */
  unfrozen: UnfrozenNodes;
  /** Variables by reference, ordered by `touch` ascending (least recently updated first). */
  readonly variables: Map<string, VariableEntry>;
  /** The stored call outputs among `variables`, in the same order (what retention and listings of outputs read). */
  readonly callOutputs: Map<string, VariableEntry>;
  /** Paths of state variables. */
  readonly trie: PathTrie;
  /** Next sequence number (write log and update order). */
  nextSeq: number;
  /** The stored thread's change counter the model is current with (SQLite `threads.version`; 0 in memory). */
  version: number;
  /**
   * False while the thread is known to hold no state tombstone (a new thread, or one a backend loaded
   * without any): a commit then looks for no tombstone to clear. Set by a state eviction or a reset.
   */
  stateTombstones: boolean;
}

/** An evicted variable: what was removed and its tombstone. */
export interface Eviction {
  /** The removed variable. */
  readonly entry: VariableEntry;
  /** Its tombstone. */
  readonly tombstone: Tombstone;
}

/**
 * The write-log entries of a commit's writes, not built as objects: write `i` is entry `firstSeq + i`,
 * written by the change's record (its run, call id and tool) at `date`. See {@link commitLogEntry}.
 */
export interface CommitLog {
  /** Sequence number of the first write. */
  readonly firstSeq: number;
  /** ISO time of the commit. */
  readonly date: string;
  /** The writes, in order. */
  readonly writes: readonly StateWrite[];
  /** Bytes of JSON of their values (what the memory store counts towards compacting the log). */
  readonly bytes: number;
  /**
   * True when each write is of a one-segment path (a top-level key) with no variable at or below it before
   * the commit, and no two of them share it (what lets the memory store skip a compaction: `plainLog`).
   */
  readonly newKeys: boolean;
}

/** Everything one commit or lifecycle operation changes in a thread; backends persist it atomically. */
export interface ThreadChange {
  /** New folded state. */
  readonly state: JsonObject;
  /** New lifecycle write-log entries (`unset`, `reset`), in order. */
  readonly log: readonly WriteLogEntry[];
  /** A commit's write-log entries (with `record`; after `log`, which a commit leaves empty). */
  readonly commitLog?: CommitLog;
  /** Variables created or updated (their tombstones, if any, are cleared). */
  readonly upserts: readonly VariableEntry[];
  /** Variables removed without a tombstone (superseded by a write above them). */
  readonly drops: readonly VariableEntry[];
  /** Variables evicted (removed, with a tombstone). */
  readonly evictions: readonly Eviction[];
  /** References of state tombstones below written paths that the writes superseded (cleared). */
  readonly clearedTombstones: readonly string[];
  /** New stored call outputs. */
  readonly outputs: readonly { readonly callId: string; readonly value: JsonValue }[];
  /** The call record, for commits. */
  readonly record?: CallRecord;
  /** How to fill in the call hash of a `record` left unfrozen without one (see `CallCommit.callHashOf`). */
  readonly callHashOf?: ((record: CallRecord) => string) | undefined;
  /** True for `reset`: every variable, output and write-log entry of the thread goes. */
  readonly reset?: boolean;
  /** Next sequence number after the change. */
  readonly nextSeq: number;
}

/**
 * What a commit changes besides its {@link ThreadChange}, persisted in the same transaction: only a commit
 * that is accepted creates its thread, gives it a schema or takes a call number.
 */
export interface CommitExtras {
  /** The store does not hold the thread yet: the commit creates it (with the model's info). */
  readonly create?: boolean;
  /** The model's info holds a state schema the stored thread lacks: the commit stores it. */
  readonly schema?: boolean;
  /** The automatic call number the commit takes: the thread's counter must still be one below it. */
  readonly callNumber?: number;
}

/** The write-log entry of a commit's write. */
export function commitLogEntry(
  seq: number,
  record: Pick<CallRecord, "runId" | "callId" | "tool">,
  date: string,
  write: StateWrite,
): WriteLogEntry {
  return { seq, runId: record.runId, call: { id: record.callId, tool: record.tool }, date, write };
}

/**
 * A fresh model for a thread: its state the frozen empty object, nothing unfrozen (a backend that loads a
 * state into it makes its nodes unknown).
 */
export function createThreadModel(info: ThreadInfo, validator: StateValidator | undefined): ThreadModel {
  return {
    threadId: info.threadId,
    info,
    validator,
    state: Object.freeze({}) as JsonObject,
    variables: new Map(),
    callOutputs: new Map(),
    trie: new PathTrie(),
    nextSeq: 1,
    version: 0,
    unfrozen: noUnfrozenNodes(),
    stateTombstones: false,
  };
}

/** Adds or replaces a variable in the model (moving it to most recent). */
export function putVariable(model: ThreadModel, entry: VariableEntry): void {
  const { reference, version } = entry.meta;
  // a first version is of a variable the model does not hold (none was there when it was planned)
  if (version !== 1) model.variables.delete(reference);
  model.variables.set(reference, entry);
  if (entry.meta.scope === "state") model.trie.set(entry.path, reference);
  else {
    if (version !== 1) model.callOutputs.delete(reference);
    model.callOutputs.set(reference, entry);
  }
}

/** Removes a variable from the model. */
export function removeVariable(model: ThreadModel, entry: VariableEntry): void {
  model.variables.delete(entry.meta.reference);
  if (entry.meta.scope === "state") model.trie.delete(entry.path);
  else model.callOutputs.delete(entry.meta.reference);
}

/** Applies a persisted change to the cached model. */
export function applyChangeToModel(model: ThreadModel, change: ThreadChange): void {
  if (change.reset === true) {
    model.variables.clear();
    model.callOutputs.clear();
    model.trie.clear();
  }
  // indexed loops: this runs once per commit
  const { drops, evictions } = change;
  for (let index = 0; index < drops.length; index++) removeVariable(model, drops[index] as VariableEntry);
  for (let index = 0; index < evictions.length; index++) {
    const { entry } = evictions[index] as Eviction;
    removeVariable(model, entry);
    if (entry.meta.scope === "state") model.stateTombstones = true;
  }
  const upserts =
    change.upserts.length > 1 ? [...change.upserts].sort((a, b) => a.touch - b.touch) : change.upserts;
  for (let index = 0; index < upserts.length; index++) putVariable(model, upserts[index] as VariableEntry);
  noteUnfrozen(model, change);
  model.state = change.state;
  model.nextSeq = change.nextSeq;
}

/**
 * Records where a change may have left nodes unfrozen. A commit copies the frozen containers on its write
 * paths (and changes unfrozen ones in place), so only its write paths and what is below their targets can
 * hold unfrozen nodes (see `frozen-state.ts`). A change that leaves the state as it was (evicting call
 * outputs) keeps what was known; any other change (unsets, a reset) makes it unknown.
 */
function noteUnfrozen(model: ThreadModel, change: ThreadChange): void {
  const nodes = model.unfrozen;
  if (nodes.keys === undefined) return;
  if (change.reset === true || change.log.length > 0) {
    model.unfrozen = unknownNodes();
    return;
  }
  const writes = change.commitLog?.writes;
  if (writes === undefined) {
    if (change.state !== model.state) model.unfrozen = unknownNodes();
    return;
  }
  noteUnfrozenWrites(nodes, writes);
}

/**
 * The model's state as a deeply frozen snapshot: the nodes changed since the last read are frozen (along
 * the paths written since, when known: O(paths and new nodes), not O(state) nor O(an appended array)),
 * then the root. O(1) when nothing was written since the last read.
 */
export function frozenState(model: ThreadModel): JsonObject {
  const root = model.state;
  // a root is frozen or extensible (nothing seals one or prevents its extension): the O(1) test, where
  // `Object.isFrozen` of a frozen root walks every variable's key (~40 µs a run at 3,000, stop 34)
  if (!Object.isExtensible(root)) return root;
  freezeState(root, model.unfrozen);
  model.unfrozen = noUnfrozenNodes();
  return root;
}

/**
 * The stored outputs a change replaces with another call's (the same call id stored again by another run):
 * their model entries before the change. Their records no longer hold the value (decision record 0029).
 */
export function replacedOutputs(model: ThreadModel, change: ThreadChange): VariableEntry[] | undefined {
  if (change.outputs.length === 0) return undefined;
  let replaced: VariableEntry[] | undefined;
  for (let index = 0; index < change.upserts.length; index++) {
    const { meta } = change.upserts[index] as VariableEntry;
    if (meta.scope !== "calls") continue;
    const previous = model.callOutputs.get(meta.reference);
    if (previous === undefined || previous.meta.runId === meta.runId) continue;
    if (replaced === undefined) replaced = [previous];
    else replaced.push(previous);
  }
  return replaced;
}
