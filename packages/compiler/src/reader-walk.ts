import type { DagNode, WriterGroup } from "./plan-dag.js";

/** At most this many readers are walked to count several paths' readers each once (see `walkReaders`). */
export const MAX_READERS_WALKED = 1_000;
/**
 * At most this many reader ids are listed in one STREAM_ORDER warning's `related`: every writer sent after
 * n readers of its path warns, and n ids in each of n warnings held O(n²) memory (8,000 + 8,000: 64 million).
 */
export const MAX_READERS_RELATED = 100;

/**
 * One walk of several groups' readers, in order, up to MAX_READERS_WALKED readers (a reader met in two
 * groups is walked twice and counted once; the new call is walked and not counted).
 */
export interface ReaderWalk {
  /** Whether each group walked added a reader no earlier group had (a group may be walked in part). */
  readonly added: readonly boolean[];
  /** The walk stopped at MAX_READERS_WALKED. */
  readonly full: boolean;
  /** The distinct readers walked. */
  readonly count: number;
  /** The first MAX_READERS_RELATED of them, in the order walked. */
  readonly related: readonly string[];
}

/**
 * One group's step of a walk, kept for the next walks whose groups start with the same ones: the walk
 * depends only on the groups before it and how many of their readers it walked, and a group's readers only
 * grow (appended in the order calls are added, so by `position`), so a step stays right while its group's
 * walked readers are the same. The steps form a tree by their first groups: writers that alternate between
 * sibling groups (A, B then A, C then A, B …) each find theirs (stop 38 kept one walk per first group, and
 * such writers walked up to 1,000 readers each).
 */
class WalkStep {
  /** The kept steps after this one, by their group (created on the first). */
  next: Map<WriterGroup, WalkStep> | undefined = undefined;

  constructor(
    readonly group: WriterGroup,
    /** Readers of `group` walked: its first ones (the walk may stop in it). */
    readonly walked: number,
    /** Readers walked by the steps up to this one, this one included. */
    readonly entries: number,
    /** Distinct readers walked by the steps before this one. */
    readonly earlierCount: number,
    /** Distinct readers walked by the steps up to this one, this one included. */
    readonly count: number,
    /** The ids this step adds to the walk's first MAX_READERS_RELATED, in order. */
    readonly related: readonly string[],
  ) {}
}

/** The `related` of a step that names no reader, shared. */
const NO_IDS: readonly string[] = [];

/** The kept first steps, by their group. */
const firstSteps = new WeakMap<WriterGroup, WalkStep>();

/** Scratch list of `walkReaders`: the walk's steps, in order. */
const steps: WalkStep[] = [];

/**
 * Walks `groups`' readers (see `ReaderWalk`), reusing the kept steps whose readers are the same, and keeps
 * the new steps unless the walk met `callId`. A new step tells a reader an earlier step walked by a binary
 * search of their readers by `position` while that costs less than a set of the earlier steps' readers.
 */
export function walkReaders(groups: readonly WriterGroup[], callId: string): ReaderWalk {
  steps.length = 0;
  let parent: WalkStep | undefined;
  let entries = 0;
  let keep = true;
  seen = undefined;
  for (const group of groups) {
    if (entries === MAX_READERS_WALKED) break;
    const readers = group.readers;
    const walked = Math.min(readers.length, MAX_READERS_WALKED - entries);
    const met = walked > 0 && walked === readers.length && (readers[walked - 1] as DagNode).id === callId;
    if (met) keep = false;
    let step = keep ? (parent === undefined ? firstSteps.get(group) : parent.next?.get(group)) : undefined;
    if (step === undefined || step.walked !== walked) {
      step = newStep(group, walked, callId, parent);
      if (keep && parent === undefined) firstSteps.set(group, step);
      else if (keep && parent !== undefined) {
        parent.next ??= new Map();
        parent.next.set(group, step);
      }
    }
    steps.push(step);
    parent = step;
    entries = step.entries;
  }
  const added: boolean[] = [];
  const related: string[] = [];
  for (const step of steps) {
    added.push(step.count > step.earlierCount);
    for (const id of step.related) related.push(id);
  }
  steps.length = 0;
  seen = undefined;
  return { added, full: entries === MAX_READERS_WALKED, count: parent?.count ?? 0, related };
}

/**
 * The positions of the readers the walk's steps walked (but the new call), once a new step found a set
 * cheaper than its binary searches: the next new steps of the same walk use it and go on filling it.
 */
let seen: Set<number> | undefined;

/** Makes the step of `group`'s first `walked` readers after `steps` (the last of which is `parent`). */
function newStep(group: WriterGroup, walked: number, callId: string, parent: WalkStep | undefined): WalkStep {
  const readers = group.readers;
  const before = parent?.entries ?? 0;
  const earlierCount = parent?.count ?? 0;
  const room = MAX_READERS_RELATED - earlierCount;
  const depth = steps.length;
  const met = walked > 0 && walked === readers.length && (readers[walked - 1] as DagNode).id === callId;
  const related: string[] = [];
  let fresh: number;
  if (depth === 0) {
    // the first step: its readers are distinct, only the first ones are named
    fresh = walked - (met ? 1 : 0);
    for (let r = 0; r < walked && related.length < room; r++) {
      const id = (readers[r] as DagNode).id;
      if (id !== callId) related.push(id);
    }
  } else {
    // a binary search per earlier step for each reader tested (counted, then named while there is room)
    const tests = Math.min(walked, before) + (room > 0 ? Math.min(walked, MAX_READERS_RELATED) : 0);
    if (seen === undefined && 2 * depth * tests > before + walked) seen = walkedSoFar(callId);
    if (seen !== undefined || walked <= before)
      fresh = freshOf(readers, walked, callId, depth, room, related);
    else {
      // fewer readers walked before than in this group: count those of them it holds
      fresh = walked - sharedWith(group, walked, callId, depth) - (met ? 1 : 0);
      for (let r = 0; r < walked && related.length < room; r++) {
        const node = readers[r] as DagNode;
        if (node.id !== callId && !walkedBefore(node, depth)) related.push(node.id);
      }
    }
  }
  if (seen !== undefined)
    for (let r = 0; r < walked; r++) {
      const node = readers[r] as DagNode;
      if (node.id !== callId) seen.add(node.position);
    }
  const named = related.length === 0 ? NO_IDS : related;
  return new WalkStep(group, walked, before + walked, earlierCount, earlierCount + fresh, named);
}

/**
 * Of the first `walked` `readers`, those no earlier step walked (nor the new call): their count, and the
 * first `room` ids pushed to `related`. Tests each against `seen`, or by binary search in each earlier step.
 */
function freshOf(
  readers: readonly DagNode[],
  walked: number,
  callId: string,
  depth: number,
  room: number,
  related: string[],
): number {
  let fresh = 0;
  for (let r = 0; r < walked; r++) {
    const node = readers[r] as DagNode;
    if (node.id === callId) continue;
    if (seen === undefined ? walkedBefore(node, depth) : seen.has(node.position)) continue;
    fresh++;
    if (related.length < room) related.push(node.id);
  }
  return fresh;
}

/** How many distinct readers the first `depth` steps walked (but the new call) are among `group`'s first `walked`. */
function sharedWith(group: WriterGroup, walked: number, callId: string, depth: number): number {
  let shared = 0;
  for (let s = 0; s < depth; s++) {
    const step = steps[s] as WalkStep;
    const readers = step.group.readers;
    for (let r = 0; r < step.walked; r++) {
      const node = readers[r] as DagNode;
      if (node.id !== callId && holds(group, walked, node) && !walkedBefore(node, s)) shared++;
    }
  }
  return shared;
}

/** The positions of the readers `steps` walked, but the new call's. */
function walkedSoFar(callId: string): Set<number> {
  const positions = new Set<number>();
  for (const step of steps) {
    const readers = step.group.readers;
    for (let r = 0; r < step.walked; r++) {
      const node = readers[r] as DagNode;
      if (node.id !== callId) positions.add(node.position);
    }
  }
  return positions;
}

/** Whether one of the first `depth` steps walked `node`. */
function walkedBefore(node: DagNode, depth: number): boolean {
  for (let s = 0; s < depth; s++) {
    const step = steps[s] as WalkStep;
    if (holds(step.group, step.walked, node)) return true;
  }
  return false;
}

/** Whether `node` is among the first `walked` readers of `group` (a binary search by position). */
function holds(group: WriterGroup, walked: number, node: DagNode): boolean {
  const readers = group.readers;
  const position = node.position;
  let low = 0;
  let high = walked;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const at = (readers[middle] as DagNode).position;
    if (at === position) return true;
    if (at < position) low = middle + 1;
    else high = middle;
  }
  return false;
}
