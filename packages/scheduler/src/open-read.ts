import type { CompiledCall, WriterLink } from "@obelisk/compiler";
import type { Reference } from "@obelisk/core";
import { type CallSlot, forEachOperand } from "./call-slot.js";
import type { ContextProbe, DecisionCoreOptions } from "./decision-types.js";
import type { PathTrie } from "./path-trie.js";

/** An operand of a streamed slot that no writer was known for when the slot was added, and where it is. */
export interface OpenRead {
  readonly slot: CallSlot;
  readonly reference: Reference;
  /** The slot's writer list for the operand (claims are pushed onto it). */
  readonly links: WriterLink[];
  readonly expression: number;
  readonly alternative: number;
  readonly operand: number;
}

/** Streaming: files each operand of a new slot that no writer was known for under its path. */
export function registerOpenReads(openReads: PathTrie<OpenRead>, slot: CallSlot): void {
  const writers = slot.writers;
  if (writers === undefined) return;
  forEachOperand(slot.call, ({ reference }, expression, alternative, operand) => {
    const links = writers.get(reference.text);
    if (links === undefined || links.length > 0) return;
    const open: OpenRead = { slot, reference, links, expression, alternative, operand };
    openReads.add(reference.kind, reference.path, open);
  });
}

/** Offers `call` to one open operand; false when the entry can leave the index (claimed, decided, …). */
export function stillOpen(
  open: OpenRead,
  call: CompiledCall,
  claims: NonNullable<DecisionCoreOptions["claims"]>,
  probe: ContextProbe,
): boolean {
  const slot = open.slot;
  // the operand a slot is parked on is `claimParked`'s; its later operands are claimed here
  if (slot.phase === "parked" && !decided(open) && isCurrent(open)) return true;
  if ((slot.phase !== "evaluating" && slot.phase !== "parked") || open.links.length > 0 || decided(open))
    return false;
  if (probe.exists(open.reference)) return false;
  const link = claims(call, open.reference);
  if (link === undefined) return true;
  if (!open.links.some((known) => known.callId === link.callId)) open.links.push(link);
  return false;
}

/** True once the slot's cursor has passed the operand (decided present, or its alternative missing). */
function decided(open: OpenRead): boolean {
  const slot = open.slot;
  if (open.expression !== slot.expression) return open.expression < slot.expression;
  if (open.alternative !== slot.alternative) return open.alternative < slot.alternative;
  return open.operand < slot.operand;
}

/** True when the operand is the one the slot's cursor is on. */
function isCurrent(open: OpenRead): boolean {
  const slot = open.slot;
  return (
    open.expression === slot.expression &&
    open.alternative === slot.alternative &&
    open.operand === slot.operand
  );
}
