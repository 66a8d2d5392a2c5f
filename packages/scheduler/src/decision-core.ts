import type { CallOperand, CompiledCall, WriterLink } from "@obelisk/compiler";
import type { Reference } from "@obelisk/core";
import { cancelledBefore, joinGroups, mayCommit, stallFailure, stallVictim } from "./accumulation-groups.js";
import {
  alternativesAt,
  type CallSlot,
  createCallSlot,
  forEachOperand,
  NO_ITEMS,
  operandsAt,
} from "./call-slot.js";
import type { CommitGroup } from "./commit-group.js";
import type { ContextProbe, CoreEffect, DecisionCoreOptions, SettleInfo } from "./decision-types.js";
import { orderDispatches } from "./dispatch-order.js";
import { forEachTarget } from "./for-each-target.js";
import { heldOver } from "./held-over.js";
import { nextExpression } from "./next-expression.js";
import { type OpenRead, registerOpenReads, stillOpen } from "./open-read.js";
import { type Parking, parkedOverlapping } from "./parked-overlapping.js";
import { PathTrie } from "./path-trie.js";
import { isApprovalReference, someWriterWaiting, unsatisfiedEffect } from "./unsatisfied-effect.js";
import { writerOf, writersDelivered } from "./writer-slots.js";

const defaultWriters = (call: CompiledCall, reference: Reference): readonly WriterLink[] =>
  call.writers.get(reference.text) ?? [];

/**
 * The scheduler's pure decision core (STYLE §2): run state + event → effects as data. No I/O, no timers:
 * the runner performs the effects and reports back with `completed` / `settled`.
 *
 * Readiness follows SPEC §2/§7: operands are considered left to right; an operand is decided when all its
 * in-plan writers have settled; `a || b` takes `a` as soon as it exists after its writers settle, without
 * waiting for `b`'s writers. Each call keeps a counter of the unsettled writers of the operand it waits
 * for, so a completion only re-evaluates its own dependents (O(edges) in total).
 */
export class DecisionCore {
  private readonly slots: CallSlot[] = [];
  private readonly byId = new Map<string, CallSlot>();
  /** Streaming: slots waiting for a writer not added yet, by its id (moved onto its slot when it is added). */
  private readonly early = new Map<string, CallSlot[]>();
  private readonly groups = new Map<string, CommitGroup>();
  /** Streaming: slots waiting for a writer of their current operand, in the order they parked. */
  private readonly parked = new Set<CallSlot>();
  /** The parked slots by the path of the operand each waits on: a new call looks only at those it may claim. */
  private readonly parkedByPath = new PathTrie<CallSlot>();
  /** The operand each parked slot waits on (where it is filed in `parkedByPath`) and when it parked. */
  private readonly parkedOn = new Map<CallSlot, Parking>();
  private parkings = 0;
  /**
   * Streaming: the operands no writer was known for when their call was added (a writer added later and
   * claiming one is waited for, if the thread holds no value there by then), by path: a new call looks
   * only at the operands its targets overlap, not at every waiting reader.
   */
  private readonly openReads = new PathTrie<OpenRead>();
  private readonly probe: ContextProbe;
  private readonly writersOf: NonNullable<DecisionCoreOptions["writersOf"]>;
  private readonly claims: DecisionCoreOptions["claims"];
  private readonly rank: DecisionCoreOptions["rank"];
  private closed: boolean;
  private settledCount = 0;
  /** Slots whose work is in flight (`dispatched` or `committing`): while none is, nothing can progress. */
  private active = 0;
  private finished = false;
  private readonly slotOf = (id: string): CallSlot | undefined => this.byId.get(id);
  /** A compiled operand's links, or the `writersOf` answer for a `†calls.<id>` operand (see `linksOf`). */
  private readonly operandLinks = (call: CompiledCall, operand: CallOperand): readonly WriterLink[] =>
    operand.reference.kind === "calls" ? this.writersOf(call, operand.reference) : operand.links;

  /** Creates a core for one run. */
  constructor(options: DecisionCoreOptions) {
    this.probe = options.probe;
    this.closed = options.closed ?? true;
    this.writersOf = options.writersOf ?? defaultWriters;
    this.claims = options.claims;
    this.rank = options.rank;
  }

  /** Number of calls added. */
  get size(): number {
    return this.slots.length;
  }

  /** The slot of a call by plan index. */
  slot(index: number): CallSlot {
    const slot = this.slots[index];
    if (slot === undefined) throw new RangeError(`no call at index ${index}`);
    return slot;
  }

  /**
   * Adds calls (in plan order) and evaluates them; returns the effects. Every event method appends its
   * effects to `effects` when given (the runner passes its queue: no array per event) and returns it.
   */
  add(calls: readonly CompiledCall[], effects: CoreEffect[] = []): CoreEffect[] {
    const before = effects.length;
    const added: CallSlot[] = [];
    for (let at = 0; at < calls.length; at++) {
      const call = calls[at] as CompiledCall;
      const slot = createCallSlot(call, this.slots.length, this.operandLinks, !this.closed);
      this.slots.push(slot);
      this.byId.set(call.id, slot);
      if (this.early.size > 0) {
        slot.waiters = this.early.get(call.id);
        this.early.delete(call.id);
      }
      joinGroups(this.groups, slot);
      added.push(slot);
    }
    if (this.openReads.size > 0) this.claimOpenReads(calls);
    if (this.parked.size > 0) this.claimParked(calls, effects);
    for (let at = 0; at < added.length; at++) registerOpenReads(this.openReads, added[at] as CallSlot);
    for (let at = 0; at < added.length; at++) this.evaluate(added[at] as CallSlot, effects);
    if (this.rank !== undefined) orderDispatches(effects, before, this.rank);
    return effects;
  }

  /** No more calls will be added: parked references are decided now. */
  close(effects: CoreEffect[] = []): CoreEffect[] {
    const before = effects.length;
    this.closed = true;
    const parked = [...this.parked];
    this.parked.clear();
    this.parkedOn.clear();
    this.parkedByPath.clear();
    for (const slot of parked) {
      slot.phase = "evaluating";
      this.evaluate(slot, effects);
    }
    this.checkFinished(effects);
    this.breakStall(effects, before);
    return effects;
  }

  /** The tool finished with a result for `alternative` (or none): decide when it may be committed. */
  completed(index: number, alternative: number | undefined, effects: CoreEffect[] = []): CoreEffect[] {
    const before = effects.length;
    const slot = this.slot(index);
    slot.phase = "held";
    if (alternative !== undefined) slot.completedAlternative = alternative;
    if (slot.groups.length === 0 || mayCommit(this.groups, slot)) {
      const cancelled = slot.groups.length === 0 ? undefined : cancelledBefore(this.groups, slot);
      if (cancelled !== undefined) {
        slot.phase = "dispatched";
        effects.push(cancelled);
        return effects;
      }
      slot.phase = "committing";
      effects.push({ type: "commit", index });
      return effects;
    }
    this.active--;
    this.breakStall(effects, before);
    return effects;
  }

  /** The call settled (its commit is durable): wake its dependents and release ordered writers. */
  settled(index: number, info: SettleInfo, effects: CoreEffect[] = []): CoreEffect[] {
    const before = effects.length;
    const slot = this.slot(index);
    if (slot.phase === "settled") return effects;
    if (slot.phase === "dispatched" || slot.phase === "committing") this.active--;
    slot.phase = "settled";
    slot.status = info.status;
    if (info.alternative !== undefined) slot.written = info.alternative;
    this.settledCount++;
    if (this.parked.size > 0) this.unpark(slot);
    const waiting = slot.waiters;
    if (waiting !== undefined) {
      slot.waiters = undefined;
      for (let at = 0; at < waiting.length; at++) {
        const waiter = waiting[at] as CallSlot;
        waiter.pending--;
        if (waiter.pending === 0 && waiter.phase === "evaluating") this.evaluate(waiter, effects);
      }
    }
    const groups = slot.groups;
    if (info.status === "cancelled")
      for (let at = 0; at < groups.length; at++) {
        const group = this.groups.get(groups[at] as string);
        if (group !== undefined) group.cancelled = true;
      }
    for (let at = 0; at < groups.length; at++) this.releaseGroup(groups[at] as string, effects);
    if (this.rank !== undefined) orderDispatches(effects, before, this.rank);
    this.checkFinished(effects);
    this.breakStall(effects, before);
    return effects;
  }

  /** Indexes of calls not yet dispatched nor settled (they end `cancelled` when the run is aborted). */
  undispatched(): number[] {
    const result: number[] = [];
    for (const slot of this.slots)
      if (slot.phase === "evaluating" || slot.phase === "parked") result.push(slot.index);
    return result;
  }

  /** True when every call has settled and no more can be added. */
  get done(): boolean {
    return this.closed && this.settledCount === this.slots.length;
  }

  private checkFinished(effects: CoreEffect[]): void {
    if (!this.finished && this.done) {
      this.finished = true;
      effects.push({ type: "finish" });
    }
  }

  /**
   * Advances a slot's cursor as far as the settled writers allow. The operands are read from the compiled
   * call's flat list (`call.operands`, divided by `call.operandShape`), their writers from the operand.
   */
  private evaluate(slot: CallSlot, effects: CoreEffect[]): void {
    const call = slot.call;
    const operands = call.operands;
    while (slot.expression < slot.expressionCount) {
      const operand = operands[slot.at + slot.operand] as CallOperand;
      const reference = operand.reference;
      // kept while the cursor stays on the operand: waking up does not look its writers up again
      let writers = slot.links;
      if (writers === undefined) {
        writers = this.linksOf(slot, operand);
        slot.links = writers;
      }
      if (!slot.subscribed) {
        slot.subscribed = true;
        slot.pending = this.subscribe(slot, writers);
      }
      if (slot.pending > 0) return;
      slot.subscribed = false;
      const present = this.decidedPresent(slot, writers, reference);
      slot.links = undefined;
      slot.writer = undefined;
      const count = operandsAt(call, slot.shapeAt, slot.alternative);
      if (present) {
        slot.operand++;
        if (slot.operand === count) {
          nextExpression(slot);
          slot.missing = NO_ITEMS;
        }
        continue;
      }
      if (!this.closed && writers.length === 0 && !isApprovalReference(reference)) {
        this.park(slot, reference);
        return;
      }
      slot.missing = [...slot.missing, { reference, writers }];
      slot.alternative++;
      slot.at += count;
      slot.operand = 0;
      // A writer waiting for approval has not settled its part (SPEC §2: the operand is undecided until it
      // runs on a later run): the expression waits with it instead of taking its next alternative, which
      // would run the call now and again once approved (decision 0046).
      if (
        slot.alternative === alternativesAt(call, slot.shapeAt) ||
        someWriterWaiting(writers, this.slotOf, call.id)
      ) {
        const effect = heldOver(slot.held, unsatisfiedEffect(slot, this.slotOf));
        if (effect.type === "unsatisfied" && effect.status === "waiting") {
          // decide the other expressions first: a blocked or failed one wins whatever the parameter order
          slot.held = effect;
          nextExpression(slot);
          slot.missing = NO_ITEMS;
          continue;
        }
        slot.phase = "dispatched";
        this.active++;
        effects.push(effect);
        return;
      }
    }
    slot.phase = "dispatched";
    this.active++;
    effects.push(slot.held ?? { type: "dispatch", index: slot.index });
  }

  /**
   * True when a decided operand holds a value for this run: with in-plan writers, one of them must have
   * written it (settled succeeded or satisfied, on an alternative that writes the path) and none may have
   * ended without its contribution (failed, blocked, rejected, waiting, deferred, cancelled) — a value an
   * earlier run left there, or the part other writers made, does not stand in for a writer that did not
   * deliver (SPEC §7: a failed or blocked upstream leaves the reference unsatisfied). A writer that took
   * another of its alternatives is not a failure (SPEC §6: a conditional reference). Without in-plan
   * writers, the known context decides.
   */
  private decidedPresent(slot: CallSlot, writers: readonly WriterLink[], reference: Reference): boolean {
    if (writers.length > 0 && !writersDelivered(slot, writers, this.slots, this.byId)) return false;
    return this.probe.exists(reference);
  }

  /** True when `reference`, an operand of the call at `index`, holds a value for this run (see below). */
  present(index: number, reference: Reference): boolean {
    const slot = this.slot(index);
    const writers = slot.writers?.get(reference.text) ?? this.writersOf(slot.call, reference);
    return this.decidedPresent(slot, writers, reference);
  }

  /**
   * The ids of the calls a ready call waited for, each once, in the order its references name them: the
   * in-plan writers of the operands it decided — for `a || b`, those of each alternative it tried, up to and
   * including the one it took (the first whose operands are all present, as {@link evaluate} chose it).
   * Read back from the slot when `call-ready` is emitted to an observer: the core keeps nothing for it, so
   * a run nobody observes pays nothing.
   */
  waitedFor(index: number): readonly string[] {
    const slot = this.slot(index);
    let ids: Set<string> | undefined;
    // per expression, whether an alternative was taken (the operands of later ones were not decided)
    let expression = -1;
    let taken = false;
    let alternative = -1;
    let decided = false;
    forEachOperand(slot.call, (operand, at, inAlternative) => {
      if (at !== expression) {
        expression = at;
        taken = false;
        alternative = -1;
      }
      if (inAlternative !== alternative) {
        if (alternative !== -1 && decided) taken = true;
        alternative = inAlternative;
        decided = true;
      }
      if (taken || !decided) return;
      const links = this.linksOf(slot, operand);
      for (const { callId } of links) {
        // a streamed writer never added (the stream closed first) was not waited for
        const writer = this.byId.get(callId);
        if (writer === undefined || writer === slot || ids?.has(callId) === true) continue;
        ids ??= new Set();
        ids.add(callId);
      }
      if (!this.decidedPresent(slot, links, operand.reference)) decided = false;
    });
    return ids === undefined ? NO_ITEMS : [...ids];
  }

  /** In-plan writers of an operand: the streaming snapshot (with late claims), else the compiled links. */
  private linksOf(slot: CallSlot, operand: CallOperand): readonly WriterLink[] {
    const snapshot = slot.writers;
    if (snapshot !== undefined) {
      const links = snapshot.get(operand.reference.text);
      if (links !== undefined) return links;
    }
    return this.operandLinks(slot.call, operand);
  }

  /** The operand a slot is deciding. */
  private currentOperand(slot: CallSlot): Reference {
    return (slot.call.operands[slot.at + slot.operand] as CallOperand).reference;
  }

  /** Subscribes to every unsettled writer; returns how many there are. */
  private subscribe(slot: CallSlot, writers: readonly WriterLink[]): number {
    let pending = 0;
    for (let at = 0; at < writers.length; at++) {
      const link = writers[at] as WriterLink;
      const writer = writerOf(this.slots, this.byId, link);
      if (writers.length === 1) slot.writer = writer;
      if (writer === slot || writer?.phase === "settled") continue;
      if (writer === undefined && this.closed) continue;
      pending++;
      if (writer !== undefined) {
        if (writer.waiters === undefined) writer.waiters = [slot];
        else writer.waiters.push(slot);
        continue;
      }
      const list = this.early.get(link.callId);
      if (list === undefined) this.early.set(link.callId, [slot]);
      else list.push(slot);
    }
    return pending;
  }

  /**
   * Streaming: new calls claim the operands of slots still evaluating that had no writer when they were
   * added and that the thread holds no value for, among those not decided yet (at or after the cursor) — a
   * reader still waiting for another reference when the writer came would otherwise find no writer once
   * it got there, park, and fail REF_UNRESOLVED at close even though the writer was added (a race on when
   * the writer finished). Parked slots are claimed by `claimParked`. Each call looks at the operands its
   * targets overlap only; entries that can no longer be claimed leave the index as they are met.
   */
  private claimOpenReads(calls: readonly CompiledCall[]): void {
    const claims = this.claims;
    if (claims === undefined) return;
    for (const call of calls)
      forEachTarget(call, (kind, path) =>
        this.openReads.sweepOverlapping(kind, path, (open) => stillOpen(open, call, claims, this.probe)),
      );
  }

  /** Parks a slot on the operand no writer is known for yet (until a new call claims it, or close). */
  private park(slot: CallSlot, reference: Reference): void {
    slot.phase = "parked";
    this.parked.add(slot);
    this.parkedOn.set(slot, { reference, order: this.parkings++ });
    this.parkedByPath.add(reference.kind, reference.path, slot);
  }

  /** Takes a slot off the parked set and index (the caller sets its phase). */
  private unpark(slot: CallSlot): void {
    if (!this.parked.delete(slot)) return;
    const { reference } = this.parkedOn.get(slot) as { readonly reference: Reference };
    this.parkedOn.delete(slot);
    this.parkedByPath.remove(reference.kind, reference.path, slot);
  }

  /**
   * Streaming: new calls may claim paths parked calls are waiting for. Only the parked slots whose operand
   * a new call's target overlaps are looked at; they wake in the order they parked.
   */
  private claimParked(calls: readonly CompiledCall[], effects: CoreEffect[]): void {
    const claims = this.claims;
    if (claims === undefined) return;
    const inParkingOrder = parkedOverlapping(calls, this.parkedByPath, this.parkedOn);
    const parkedOn = this.parkedOn;
    for (const slot of inParkingOrder) {
      const reference = this.currentOperand(slot);
      const writers = slot.writers?.get(reference.text);
      if (writers !== undefined)
        for (const call of calls) {
          const link = claims(call, reference);
          if (link !== undefined && !writers.some((known) => known.callId === link.callId))
            writers.push(link);
        }
      if (writers === undefined || writers.length === 0) {
        const filed = (parkedOn.get(slot) as Parking).reference;
        this.parkedByPath.add(filed.kind, filed.path, slot);
        continue;
      }
      this.parked.delete(slot);
      parkedOn.delete(slot);
      slot.phase = "evaluating";
      slot.subscribed = false;
      this.evaluate(slot, effects);
    }
  }

  /**
   * A closed run where nothing is in flight and not every call has settled is deadlocked: an accumulating
   * writer is held behind an earlier writer of the same path that (transitively) reads one of its
   * targets. The held writer that someone waits for fails `OUTPUT_WRITE_FAILED` (nothing written); its
   * readers then decide as for any failed upstream call. Repeats until the run can progress: never hangs.
   */
  /** `before`: the length of `effects` when the event began (what this event added comes after it). */
  private breakStall(effects: CoreEffect[], before: number): void {
    if (this.active > 0 || !this.closed || this.done || this.parked.size > 0 || effects.length > before)
      return;
    const victim = stallVictim(this.slots);
    if (victim === undefined) return;
    victim.phase = "dispatched";
    this.active++;
    effects.push(stallFailure(victim));
  }

  /** After a member settles, the next held member of the group may commit. */
  private releaseGroup(text: string, effects: CoreEffect[]): void {
    const member = this.groups.get(text)?.firstUnsettled();
    if (member?.phase === "held" && mayCommit(this.groups, member)) {
      this.active++;
      const cancelled = cancelledBefore(this.groups, member);
      member.phase = cancelled === undefined ? "committing" : "dispatched";
      effects.push(cancelled ?? { type: "commit", index: member.index });
    }
  }
}
