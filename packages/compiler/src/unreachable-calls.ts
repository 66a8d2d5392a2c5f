import { type Diagnostic, type InputExpression, parameterExpressions, type Reference } from "@obelisk/core";
import type { CallEntry } from "./builder-types.js";
import type { WriterLink } from "./compiled-plan.js";
import { makeDiagnostic } from "./make-diagnostic.js";

type Needs = Map<string, ReadonlySet<number>>;

/** Adds what one operand needs (a single conditional writer → that writer's alternatives); false on a contradiction. */
function need(entry: CallEntry, operand: Reference, needs: Needs): boolean {
  const links = entry.writers.get(operand.text) ?? [];
  const only = links[0];
  if (links.length !== 1 || only === undefined || !only.conditional) return true;
  const current = needs.get(only.callId);
  const wanted = new Set(only.alternatives);
  if (current === undefined) {
    needs.set(only.callId, wanted);
    return true;
  }
  const both = new Set([...current].filter((alternative) => wanted.has(alternative)));
  needs.set(only.callId, both);
  return both.size > 0;
}

function gatePossible(entry: CallEntry, gate: readonly Reference[], base: Needs): boolean {
  const needs = new Map(base);
  return gate.every((operand) => need(entry, operand, needs));
}

/** True when some operand has a single, conditional writer (only those can make a call unreachable). */
function hasConditionalOperand(entry: CallEntry): boolean {
  for (const reference of entry.call.references) {
    const value = reference.value;
    if (value.type === "reference") {
      if (expressionHasConditional(entry, value.expression)) return true;
    } else {
      for (const part of value.parts)
        if (typeof part !== "string" && expressionHasConditional(entry, part)) return true;
    }
  }
  return false;
}

function expressionHasConditional(entry: CallEntry, expression: InputExpression): boolean {
  for (const gate of expression.alternatives)
    for (const operand of gate) {
      const links = entry.writers.get(operand.text);
      if (links !== undefined && links.length === 1 && (links[0] as WriterLink).conditional) return true;
    }
  return false;
}

/**
 * UNREACHABLE for a call that needs two different alternatives of one writer (SPEC §6): across its
 * mandatory operands (expressions with one alternative), or inside every alternative of one expression.
 */
export function unreachableCall(entry: CallEntry): Diagnostic | undefined {
  if (!hasConditionalOperand(entry)) return undefined;
  const needs: Needs = new Map();
  for (const reference of entry.call.references) {
    for (const expression of parameterExpressions(reference.value)) {
      const gates = expression.alternatives;
      const possible =
        gates.length === 1
          ? (gates[0] ?? []).every((operand) => need(entry, operand, needs))
          : gates.some((gate) => gatePossible(entry, gate, needs));
      if (possible) continue;
      const message = `call "${entry.call.id}" needs two different alternatives of one call: it can never run`;
      const related = [...needs.keys()];
      return makeDiagnostic("UNREACHABLE", message, reference.pointer, { callId: entry.call.id, related });
    }
  }
  return undefined;
}

/** The first of an expression's alternatives' dead operands when every alternative has one, else undefined. */
function deadInEveryAlternative(
  entry: CallEntry,
  expression: InputExpression,
  dead: ReadonlyMap<string, string>,
): { readonly operand: Reference; readonly writer: string } | undefined {
  let first: { readonly operand: Reference; readonly writer: string } | undefined;
  for (const gate of expression.alternatives) {
    let found: { readonly operand: Reference; readonly writer: string } | undefined;
    for (const operand of gate) {
      // one writer that never delivers leaves the operand missing, whatever the others write (decision 0017)
      const writer = entry.writers
        .get(operand.text)
        ?.find((link) => link.callId !== entry.call.id && dead.has(link.callId));
      if (writer !== undefined) {
        found = { operand, writer: writer.callId };
        break;
      }
    }
    if (found === undefined) return undefined;
    first ??= found;
  }
  return first;
}

/**
 * UNREACHABLE for the calls that can never run because of calls that cannot: one that reads, without a
 * fallback that could avoid it, a path an unreachable call (ended `blocked` at run time) or a latent call
 * without `_output` (`deferred`) writes. Transitive and independent of plan order: a worklist over the
 * readers of each dead call (O(edges)); `dead` holds the calls known not to run, by id, with why (it
 * grows). Only called when some call is such.
 */
export function unreachableDownstream(
  entries: ReadonlyMap<string, CallEntry>,
  dead: Map<string, string>,
  out: Diagnostic[],
): void {
  const readers = new Map<string, CallEntry[]>();
  for (const entry of entries.values())
    for (const links of entry.writers.values())
      for (const link of links) {
        if (link.callId === entry.call.id) continue;
        let list = readers.get(link.callId);
        if (list === undefined) {
          list = [];
          readers.set(link.callId, list);
        }
        if (list[list.length - 1] !== entry) list.push(entry);
      }
  const queue = [...dead.keys()];
  for (let at = 0; at < queue.length; at++) {
    for (const entry of readers.get(queue[at] as string) ?? []) {
      const id = entry.call.id;
      if (dead.has(id)) continue;
      const found = deadReference(entry, dead);
      if (found === undefined) continue;
      const { reference, cause } = found;
      const why = dead.get(cause.writer) as string;
      dead.set(id, "can never run");
      queue.push(id);
      out.push(
        makeDiagnostic(
          "UNREACHABLE",
          `call "${id}" can never run: it reads ${cause.operand.text}, which call "${cause.writer}" writes, and "${cause.writer}" ${why}`,
          reference.pointer,
          { callId: id, related: [cause.writer] },
        ),
      );
    }
  }
}

/** The first parameter of a call one of whose expressions reads a dead call's path in every alternative. */
function deadReference(
  entry: CallEntry,
  dead: ReadonlyMap<string, string>,
):
  | {
      readonly reference: CallEntry["call"]["references"][number];
      readonly cause: { readonly operand: Reference; readonly writer: string };
    }
  | undefined {
  for (const reference of entry.call.references)
    for (const expression of parameterExpressions(reference.value)) {
      const cause = deadInEveryAlternative(entry, expression, dead);
      if (cause !== undefined) return { reference, cause };
    }
  return undefined;
}
