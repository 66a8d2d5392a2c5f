import type { CallOperand, CompiledCall, WriterLink } from "@obelisk/compiler";
import {
  asCallId,
  asThreadId,
  deepFreeze,
  formatReference,
  pathsOverlap,
  type Reference,
} from "@obelisk/core";
import type { StateStore } from "@obelisk/state";
import { isThenable } from "./awaitable.js";
import type { WorkingContext } from "./working-context.js";

/** Finds a call of the run by id. */
export interface CallLookup {
  get(id: string): CompiledCall | undefined;
}

/**
 * The calls added to a run, by id (a later call with the same id wins, as in a Map). Only `†calls.<id>`
 * references ask for it, so the map is built on first use and kept up to date from then on: a run
 * without such references builds none.
 */
export class CallsById implements CallLookup {
  private map: Map<string, CompiledCall> | undefined;

  /** `added`: the calls added so far, in order (read when the map is first needed). */
  constructor(private readonly added: readonly { readonly call: CompiledCall }[]) {}

  /** Records a call just added (after it was appended to `added`). */
  add(call: CompiledCall): void {
    this.map?.set(call.id, call);
  }

  /** The call with this id, if one was added. */
  get(id: string): CompiledCall | undefined {
    if (this.map === undefined) {
      this.map = new Map();
      for (const { call } of this.added) this.map.set(call.id, call);
    }
    return this.map.get(id);
  }
}

/** The call id a `†calls.<id>…` reference names, if any. */
function producerId(reference: Reference): string | undefined {
  const first = reference.path[0];
  return reference.kind === "calls" && typeof first === "string" ? first : undefined;
}

/**
 * Writers of a reference: the compiler's links, plus the in-plan producer of a `†calls.<id>` reference
 * (a call of this plan without `_outputPath`), added when the compiler did not link it.
 */
export function createWritersOf(byId: CallLookup) {
  return (call: CompiledCall, reference: Reference): readonly WriterLink[] => {
    const links = call.writers.get(reference.text) ?? [];
    const id = producerId(reference);
    if (id === undefined) return links;
    const producer = byId.get(id);
    if (producer === undefined || producer === call || producer.outputPath !== undefined) return links;
    if (links.some((link) => link.callId === producer.id)) return links;
    return [...links, { callId: producer.id, position: -1, alternatives: [0], conditional: false }];
  };
}

/** Streaming: a call added later claims a parked reference when one of its targets overlaps it. */
export function createClaims() {
  return (writer: CompiledCall, reference: Reference): WriterLink | undefined => {
    const outputPath = writer.outputPath;
    if (outputPath === undefined) {
      return producerId(reference) === writer.id
        ? { callId: writer.id, position: -1, alternatives: [0], conditional: false }
        : undefined;
    }
    const alternatives: number[] = [];
    outputPath.alternatives.forEach((targets, index) => {
      if (
        targets.some((target) => target.kind === reference.kind && pathsOverlap(target.path, reference.path))
      ) {
        alternatives.push(index);
      }
    });
    if (alternatives.length === 0) return undefined;
    return {
      callId: asCallId(writer.id),
      position: -1,
      alternatives,
      conditional: alternatives.length < outputPath.alternatives.length,
    };
  };
}

/**
 * Loads the stored outputs (`†calls.<id>` from earlier runs) the calls read and no call of the plan
 * produces, into the working context. Returns a promise only when the store answered asynchronously.
 */
export function preloadCallOutputs(
  calls: readonly CompiledCall[],
  byId: CallLookup,
  context: WorkingContext,
  store: StateStore,
  threadId: string,
): Promise<void> | undefined {
  const pending: Promise<void>[] = [];
  const load = (id: string): void => {
    if (context.hasCallOutput(id)) return;
    const producer = byId.get(id);
    if (producer !== undefined && producer.outputPath === undefined) return;
    const stored = store.getCallOutput(asThreadId(threadId), id);
    const keep = (found: Awaited<typeof stored>): void => {
      if (found !== undefined && "value" in found) context.setCallOutput(id, deepFreeze(found.value));
    };
    if (isThenable(stored)) pending.push(Promise.resolve(stored).then(keep));
    else keep(stored);
  };
  // An evicted array element is a null hole (decision 0013): a plan reading it finds nothing, as for an
  // evicted key. Only a null at an index is asked about (its tombstone), so this costs nothing otherwise.
  const checkHole = (reference: Reference): void => {
    const path = reference.path;
    const last = path[path.length - 1];
    if (typeof last !== "number" || context.stateAt(path) !== null) return;
    // a negative index counts from the end: the tombstone names the element by its position
    const parent = last < 0 ? context.stateAt(path.slice(0, -1)) : undefined;
    const position = Array.isArray(parent) ? parent.length + last : last;
    const tombstone = store.getTombstone(
      asThreadId(threadId),
      formatReference("state", [...path.slice(0, -1), position]),
    );
    const keep = (found: Awaited<typeof tombstone>): void => {
      if (found !== undefined) context.addHole(path);
    };
    if (isThenable(tombstone)) pending.push(Promise.resolve(tombstone).then(keep));
    else keep(tombstone);
  };
  // The operands are walked in the compiled calls' flat lists, with indexed loops: this walk runs once per
  // run over every call, mostly before it is optimized (an iterator object per loop then).
  for (let at = 0; at < calls.length; at++) {
    const operands = (calls[at] as CompiledCall).operands;
    for (let index = 0; index < operands.length; index++) {
      const reference = (operands[index] as CallOperand).reference;
      const id = producerId(reference);
      if (id !== undefined) load(id);
      else if (reference.kind === "state") checkHole(reference);
    }
  }
  return pending.length === 0 ? undefined : Promise.all(pending).then(() => undefined);
}
