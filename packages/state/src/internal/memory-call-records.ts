import type { ThreadId } from "@obelisk/core";
import type { CallRecord } from "../store-types.js";
import { fillCallHash } from "./copy-record.js";

/**
 * A thread's satisfied-check index in the memory store: the latest succeeded record per call hash, as of
 * the last lookup. The index is brought up to date on lookup, not per commit (a Map insert costs more than
 * the push).
 */
export interface CompletedIndex {
  /** Latest succeeded record per call hash. */
  readonly completed: Map<string, CallRecord>;
  /** The earlier succeeded records of a call hash that has several, oldest first (rare). */
  readonly earlier: Map<string, CallRecord[]>;
  /**
   * Succeeded records with a call hash committed since the last lookup, oldest first; among them the records
   * whose hash is filled in on the way into the index (sent without one: `CallCommit.callHashOf`).
   */
  unindexed: CallRecord[];
  /** How the hashes of the unfilled records among {@link unindexed} are computed. */
  callHashOf: ((record: CallRecord) => string) | undefined;
  /** Succeeded records with a hash (or one to fill in) by tool, ever added: may overestimate, never under. */
  readonly tools: Map<string, number>;
}

/** A new, empty {@link CompletedIndex}. */
export function newCompletedIndex(): CompletedIndex {
  return { completed: new Map(), earlier: new Map(), unindexed: [], callHashOf: undefined, tools: new Map() };
}

/**
 * Brings an index up to date with the records committed since the last lookup, filling in the hashes of
 * those sent without one: after it, every record of the thread has its hash (all unfilled ones are here).
 */
export function indexUpToDate(index: CompletedIndex): CompletedIndex {
  if (index.unindexed.length === 0) return index;
  const callHashOf = index.callHashOf;
  for (const record of index.unindexed) {
    if (callHashOf !== undefined) fillCallHash(record, callHashOf);
    const hash = record.callHash as string;
    const previous = index.completed.get(hash);
    if (previous !== undefined) {
      const list = index.earlier.get(hash);
      if (list === undefined) index.earlier.set(hash, [previous]);
      else list.push(previous);
    }
    index.completed.set(hash, record);
  }
  index.unindexed = [];
  index.callHashOf = undefined;
  return index;
}

/** The latest `limit` records of a call hash, newest first. */
export function newestOf(index: CompletedIndex, callHash: string, limit: number): CallRecord[] {
  const latest = indexUpToDate(index).completed.get(callHash);
  if (latest === undefined || limit < 1) return [];
  const earlier = index.earlier.get(callHash) ?? [];
  const records = [latest];
  for (let at = earlier.length - 1; at >= 0 && records.length < limit; at--)
    records.push(earlier[at] as CallRecord);
  return records;
}

/** Takes a record out of the index (the next older one of its hash becomes the latest). */
function unindex(index: CompletedIndex, record: CallRecord): void {
  // first: the record's hash may be one still to fill in
  indexUpToDate(index);
  const hash = record.callHash;
  if (hash === undefined) return;
  const earlier = index.earlier.get(hash);
  if (index.completed.get(hash) === record) {
    const previous = earlier?.pop();
    if (previous === undefined) index.completed.delete(hash);
    else index.completed.set(hash, previous);
  } else if (earlier !== undefined) {
    const at = earlier.indexOf(record);
    if (at >= 0) earlier.splice(at, 1);
  }
  if (earlier?.length === 0) index.earlier.delete(hash);
}

/** Where the calls' latest records sit in a run's list, by thread and call id, for the first `upTo` records. */
interface CallPositions {
  readonly byThread: Map<string, Map<string, number>>;
  upTo: number;
}

/**
 * The memory store's call records: by run (in commit order), with the run ids each thread has records
 * under (its runs, and edits recorded under shared run ids such as `obelisk.set`).
 */
export class MemoryCallRecords {
  private readonly byRun = new Map<string, CallRecord[]>();
  private readonly runsOf = new Map<string, Set<string>>();
  /**
   * By thread, the pruned runs some of whose records pruning kept (a value they wrote was still held):
   * the next prune of the thread removes those that hold nothing any more (decision 0034, Amended).
   */
  private readonly pruned = new Map<string, Set<string>>();
  /**
   * By run, where each call's latest record sits in the run's list: built on lookup (not per commit), up to
   * `upTo`, and dropped when the list is rewritten (records are only appended or replaced in place).
   */
  private readonly positions = new Map<string, CallPositions>();
  /**
   * Records looked at by call lookups ({@link ofCall}, {@link replace}): introspection for tests — evicting
   * a run's call outputs looks at each record about once, not once per output (security review 35 M1).
   */
  scanned = 0;

  /**
   * Adds a committed record (the hot path: a push, and a set entry for a new run). `callHashOf`: how to
   * fill in its hash when it came without one (left unfrozen by the commit's copy).
   */
  add(
    record: CallRecord,
    index: CompletedIndex,
    callHashOf?: ((record: CallRecord) => string) | undefined,
  ): void {
    const list = this.byRun.get(record.runId);
    if (list === undefined) {
      this.byRun.set(record.runId, [record]);
      this.noteRun(record);
    } else {
      if ((list[list.length - 1] as CallRecord).threadId !== record.threadId) this.noteRun(record);
      list.push(record);
    }
    if (record.status !== "succeeded") return;
    if (record.callHash === undefined) {
      if (callHashOf === undefined || Object.isFrozen(record)) return;
      // one way of filling hashes per batch of unindexed records
      if (index.callHashOf !== undefined && index.callHashOf !== callHashOf) indexUpToDate(index);
      index.callHashOf = callHashOf;
    }
    index.unindexed.push(record);
    index.tools.set(record.tool, (index.tools.get(record.tool) ?? 0) + 1);
  }

  private noteRun(record: CallRecord): void {
    let runs = this.runsOf.get(record.threadId);
    if (runs === undefined) {
      runs = new Set();
      this.runsOf.set(record.threadId, runs);
    }
    runs.add(record.runId);
  }

  /** A run's records, in commit order. */
  ofRun(runId: string): readonly CallRecord[] {
    return this.byRun.get(runId) ?? [];
  }

  /** True when the run has a record `waiting` on the thread (an approval gate). */
  hasWaiting(threadId: string, runId: string): boolean {
    for (const record of this.byRun.get(runId) ?? [])
      if (record.status === "waiting" && record.threadId === threadId) return true;
    return false;
  }

  /** The record of a call of a run on a thread (the latest, should there be several). */
  ofCall(threadId: string, runId: string, callId: string): CallRecord | undefined {
    const list = this.byRun.get(runId);
    if (list === undefined) return undefined;
    const at = this.positionOf(runId, list, threadId, callId);
    return at === undefined ? undefined : list[at];
  }

  /** Replaces a record by `replacement` (its stripped copy), taking it out of the satisfied index. */
  replace(record: CallRecord, replacement: CallRecord, index: CompletedIndex): void {
    const list = this.byRun.get(record.runId);
    if (list === undefined) return;
    let at = this.positionOf(record.runId, list, record.threadId, record.callId) ?? -1;
    if (list[at] !== record) {
      // an earlier record of the call (a call recorded twice in a run: rare)
      this.scanned += list.length;
      at = list.lastIndexOf(record);
    }
    if (at < 0) return;
    unindex(index, record);
    list[at] = replacement;
  }

  /** Where the latest record of a call of a run on a thread sits in the run's list, indexing what is new. */
  private positionOf(
    runId: string,
    list: readonly CallRecord[],
    threadId: string,
    callId: string,
  ): number | undefined {
    let positions = this.positions.get(runId);
    if (positions === undefined) {
      positions = { byThread: new Map(), upTo: 0 };
      this.positions.set(runId, positions);
    }
    for (let at = positions.upTo; at < list.length; at++) {
      const record = list[at] as CallRecord;
      let calls = positions.byThread.get(record.threadId);
      if (calls === undefined) {
        calls = new Map();
        positions.byThread.set(record.threadId, calls);
      }
      calls.set(record.callId, at);
    }
    this.scanned += list.length - positions.upTo;
    positions.upTo = list.length;
    return positions.byThread.get(threadId)?.get(callId);
  }

  /** Sets a run's rewritten list (or none): its positions are rebuilt on the next lookup. */
  private setList(runId: string, list: CallRecord[]): void {
    this.positions.delete(runId);
    if (list.length === 0) this.byRun.delete(runId);
    else this.byRun.set(runId, list);
  }

  /**
   * Removes the records of a run of `threadId`, except those `keep` answers true for; answers how many
   * went and stayed.
   */
  removeRun(
    threadId: string,
    runId: string,
    index: CompletedIndex,
    keep: (record: CallRecord) => boolean,
  ): { removed: number; kept: number } {
    const list = this.byRun.get(runId) ?? [];
    const left: CallRecord[] = [];
    let removed = 0;
    let kept = 0;
    for (const record of list) {
      if (record.threadId !== threadId) left.push(record);
      else if (keep(record)) {
        left.push(record);
        kept++;
      } else {
        unindex(index, record);
        removed++;
      }
    }
    this.setList(runId, left);
    // the thread no longer has records under the run: it is no run id of the thread's any more
    if (kept === 0) {
      const runs = this.runsOf.get(threadId);
      runs?.delete(runId);
      if (runs?.size === 0) this.runsOf.delete(threadId);
    }
    return { removed, kept };
  }

  /** Notes that pruning `runId` of `threadId` kept some of its records (see {@link prunedOf}). */
  notePruned(threadId: string, runId: string): void {
    let runs = this.pruned.get(threadId);
    if (runs === undefined) {
      runs = new Set();
      this.pruned.set(threadId, runs);
    }
    runs.add(runId);
  }

  /** The pruned runs of a thread some of whose records pruning kept. */
  prunedOf(threadId: string): ReadonlySet<string> {
    return this.pruned.get(threadId) ?? new Set();
  }

  /** Forgets a pruned run of {@link prunedOf} (its records all gone, or the id is a run's again). */
  forgetPruned(threadId: string, runId: string): void {
    const runs = this.pruned.get(threadId);
    runs?.delete(runId);
    if (runs?.size === 0) this.pruned.delete(threadId);
  }

  /** The threads (`only`, or all) with pruned runs some of whose records pruning kept. */
  prunedThreads(only: string | undefined): Set<ThreadId> {
    if (only !== undefined) return new Set(this.pruned.has(only) ? [only as ThreadId] : []);
    return new Set(this.pruned.keys() as Iterable<ThreadId>);
  }

  /** The threads (`only`, or all) with records under one of `runIds` (the host edits' shared run ids). */
  threadsOf(runIds: readonly string[], only: string | undefined): Set<ThreadId> {
    const threads = new Set<ThreadId>();
    for (const runId of runIds)
      for (const record of this.byRun.get(runId) ?? [])
        if (only === undefined || record.threadId === only) threads.add(record.threadId);
    return threads;
  }

  /** The run ids the thread has records under (introspection for tests). */
  runIdsOf(threadId: string): ReadonlySet<string> {
    return this.runsOf.get(threadId) ?? new Set();
  }

  /** How many records the store holds (introspection for tests and probes). */
  count(): number {
    let count = 0;
    for (const list of this.byRun.values()) count += list.length;
    return count;
  }

  /** Removes every record of a thread; answers how many. */
  removeThread(threadId: string): number {
    let removed = 0;
    for (const runId of this.runsOf.get(threadId) ?? []) {
      const list = this.byRun.get(runId) ?? [];
      const left = list.filter((record) => record.threadId !== threadId);
      removed += list.length - left.length;
      this.setList(runId, left);
    }
    this.runsOf.delete(threadId);
    this.pruned.delete(threadId);
    return removed;
  }
}
