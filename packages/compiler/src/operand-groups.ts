import type { InputExpression, OutputTarget, Reference } from "@obelisk/core";
import { pathsOverlap } from "@obelisk/core";
import type { CallEntry, WriterEntry } from "./builder-types.js";
import { clearList } from "./clear-list.js";
import type { CallOperand, ParamReference, WriterLink } from "./compiled-plan.js";
import { PathIndex } from "./path-index.js";
import { WriterGroup, withOutGroup } from "./plan-dag.js";
import { makeLink, writersOf } from "./wire-edges.js";

/** The feeds of a call that feeds no group (never written to). */
const NO_FEEDS: ReadonlyMap<WriterGroup, ReadonlySet<number>> = new Map();

/**
 * The plan builder's writer groups (see `WriterGroup`), indexed by the text and the path they read, and
 * the scratch lists of the call being added: its operands' groups, found or made by `groupsOf`.
 */
export class OperandGroups {
  /** Writer groups by the path they read (shared and private). */
  readonly #index = new PathIndex<WriterGroup>();
  /** Shared writer groups by reference text. */
  readonly #byText = new Map<string, WriterGroup>();
  /** The private group of the first compiled call that reads a text and writes an overlapping path. */
  readonly #privateByText = new Map<string, WriterGroup>();
  /** The group later such readers of a text share (see `#groupsOfExpression`), by text. */
  readonly #cyclicByText = new Map<string, WriterGroup>();
  /** The builder's index of the compiled calls' targets (the writers of a new group). */
  readonly #writers: PathIndex<WriterEntry>;
  /**
   * Scratch lists of the call being added (emptied by `start`): distinct operand texts and their groups,
   * every operand in readiness order, and the expressions' shape.
   */
  readonly texts: string[] = [];
  readonly groups: WriterGroup[] = [];
  readonly operands: CallOperand[] = [];
  /** The operand of each of `groups`. */
  readonly distinct: CallOperand[] = [];
  readonly shape: number[] = [];
  /** `texts` by text with their positions, once it is long. */
  #textPositions: Map<string, number> | undefined;
  /** Scratch list of `feedsOf`. */
  readonly #hits: WriterGroup[] = [];

  constructor(writers: PathIndex<WriterEntry>) {
    this.#writers = writers;
  }

  /** Empties the scratch lists for the next call. */
  start(): void {
    clearList(this.texts);
    this.#textPositions = undefined;
    clearList(this.groups);
    clearList(this.operands);
    clearList(this.distinct);
    clearList(this.shape);
  }

  /**
   * Indexes a group made for the call being added (its first reader) by its text and its path, and links
   * its writers (`nodes`: the compiled calls) to it. True when it is cyclic: then `entry` is among its writers.
   */
  register(
    group: WriterGroup,
    entry: CallEntry,
    alternatives: readonly (readonly OutputTarget[])[],
    own: (WriterLink | undefined)[],
    nodes: readonly CallEntry[],
  ): boolean {
    const text = group.reference.text;
    if (group.cyclic) this.#cyclicByText.set(text, group);
    else if (group.owner === undefined) this.#byText.set(text, group);
    else this.#privateByText.set(text, group);
    this.#index.add(group.reference.kind, group.reference.path, group);
    // Each link's writer by its position among the compiled calls (no lookup by id in the map of every call).
    for (let l = 0; l < group.links.length; l++) {
      const writer = nodes[(group.links[l] as WriterLink).position];
      if (writer !== undefined) writer.outGroups = withOutGroup(writer.outGroups, group);
    }
    if (!group.cyclic) return false;
    // Its first reader writes an overlapping path too: one of the group's writers (later ones are fed).
    const overlapping = overlappingAlternatives(alternatives, group.reference);
    group.links.push(makeLink(entry.id, entry.position, overlapping, own, alternatives.length));
    entry.outGroups = withOutGroup(entry.outGroups, group);
    return true;
  }

  /**
   * The writer group of each distinct operand (into `groups`, its operand into `distinct`; `texts` gets
   * each one's text), and the operand of every operand of the call in the order readiness decides them
   * (into `operands`, repeats included), with the expressions' shape (into `shape`, see
   * `CompiledCall.operandShape`). A group is shared by text, private when the call writes an overlapping
   * path. True when every expression is a single operand (the shape is not needed).
   */
  groupsOf(
    id: string,
    references: readonly ParamReference[],
    alternatives: readonly (readonly OutputTarget[])[],
  ): boolean {
    let single = true;
    for (const { value } of references) {
      if (value.type === "reference")
        single = this.#groupsOfExpression(id, value.expression, alternatives) && single;
      else if (value.type === "template")
        for (const part of value.parts)
          if (typeof part !== "string") single = this.#groupsOfExpression(id, part, alternatives) && single;
    }
    return single;
  }

  /** `groupsOf` for one expression; true when it is a single operand. */
  #groupsOfExpression(
    id: string,
    expression: InputExpression,
    alternatives: readonly (readonly OutputTarget[])[],
  ): boolean {
    const groups = this.groups;
    const operands = this.operands;
    const shape = this.shape;
    const gates = expression.alternatives;
    let single = gates.length === 1;
    shape.push(gates.length);
    for (const gate of gates) {
      shape.push(gate.length);
      if (gate.length !== 1) single = false;
      for (const operand of gate) {
        const text = operand.text;
        const seen = this.#positionOf(text);
        if (seen >= 0) {
          operands.push(groups[seen] as WriterGroup);
          continue;
        }
        let group: WriterGroup;
        if (!writesOverlapping(alternatives, operand)) {
          group =
            this.#byText.get(text) ??
            new WriterGroup(operand, writersOf(operand, id, this.#writers), undefined);
        } else if (!this.#privateByText.has(text)) {
          group = new WriterGroup(operand, writersOf(operand, id, this.#writers), id);
        } else {
          // A second call that reads this text and writes an overlapping path: with the first, a certain
          // cycle (each writes what the other reads), so the plan never runs. Private groups for all of
          // them would hold n² links (validation took minutes); they share one group that counts each
          // of them among its own writers (decision 0042).
          group =
            this.#cyclicByText.get(text) ??
            new WriterGroup(operand, writersOf(operand, id, this.#writers), undefined, true);
        }
        groups.push(group);
        this.distinct.push(group);
        operands.push(group);
      }
    }
    return single;
  }

  /** Groups (of other calls) whose reference overlaps the new call's targets, with the overlapping alternatives. */
  feedsOf(
    id: string,
    alternatives: readonly (readonly OutputTarget[])[],
  ): ReadonlyMap<WriterGroup, ReadonlySet<number>> {
    let feeds: Map<WriterGroup, Set<number>> | undefined;
    const hits = this.#hits;
    for (let alternative = 0; alternative < alternatives.length; alternative++) {
      for (const target of alternatives[alternative] as readonly OutputTarget[]) {
        clearList(hits);
        for (const group of this.#index.collectOverlapping(target.kind, target.path, hits)) {
          if (group.owner === id) continue;
          feeds ??= new Map();
          let set = feeds.get(group);
          if (set === undefined) {
            set = new Set();
            feeds.set(group, set);
          }
          set.add(alternative);
        }
      }
    }
    clearList(hits);
    return feeds ?? NO_FEEDS;
  }

  /** The position of `text` in `texts` when it is there; otherwise adds it and returns -1. */
  #positionOf(text: string): number {
    const texts = this.texts;
    if (texts.length < 16) {
      const at = texts.indexOf(text);
      if (at < 0) texts.push(text);
      return at;
    }
    let positions = this.#textPositions;
    if (positions === undefined) {
      positions = new Map(texts.map((known, at) => [known, at]));
      this.#textPositions = positions;
    }
    const at = positions.get(text);
    if (at !== undefined) return at;
    positions.set(text, texts.length);
    texts.push(text);
    return -1;
  }
}

/** The alternatives with a target that overlaps the operand's path. */
function overlappingAlternatives(
  alternatives: readonly (readonly OutputTarget[])[],
  operand: Reference,
): Set<number> {
  const found = new Set<number>();
  for (let a = 0; a < alternatives.length; a++)
    for (const target of alternatives[a] as readonly OutputTarget[])
      if (target.kind === operand.kind && pathsOverlap(target.path, operand.path)) found.add(a);
  return found;
}

/** True when one of the call's targets overlaps the operand's path. */
function writesOverlapping(alternatives: readonly (readonly OutputTarget[])[], operand: Reference): boolean {
  for (let a = 0; a < alternatives.length; a++) {
    const targets = alternatives[a] as readonly OutputTarget[];
    for (let t = 0; t < targets.length; t++) {
      const target = targets[t] as OutputTarget;
      if (target.kind === operand.kind && pathsOverlap(target.path, operand.path)) return true;
    }
  }
  return false;
}
