import type {
  CallId,
  Diagnostic,
  InputExpression,
  JsonObject,
  JsonValue,
  OutputMethod,
  OutputTarget,
  PathSegment,
  PlanCallSource,
  Reference,
} from "@obelisk/core";
import {
  appendPointer,
  asCallId,
  FORBIDDEN_SEGMENTS,
  isValidCallId,
  OUTPUT_METHODS,
  pathsOverlap,
} from "@obelisk/core";
import { analyzeCallBody, type CallBody, callObject, callTool } from "./analyze-call.js";
import { appendAll } from "./append-all.js";
import type { BuilderSettings, CallEntry, PhantomCall, WriterEntry } from "./builder-types.js";
import { checkOutputMethodValue } from "./check-output-method-value.js";
import { checkStateSchemaWrites, type StateSchemaCheck } from "./check-state-schema-writes.js";
import { clearList } from "./clear-list.js";
import { CommitOrder, commitOrderSteps } from "./commit-order.js";
import type { CallOperand, CompiledCall, ParamReference, WriterLink } from "./compiled-plan.js";
import { conflictDiagnostic } from "./conflict-diagnostic.js";
import { cycleHint, cycleText, type ReadBetween, readsByWriters } from "./cycle-text.js";
import { knownReferenceDiagnostics } from "./known-references.js";
import { makeCompiledCall } from "./make-compiled-call.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import { PathIndex } from "./path-index.js";
import { appended, NO_ITEMS, WriterGroup } from "./plan-dag.js";
import type { RegisteredTool } from "./registered-tool.js";
import type { DeclaredTypes } from "./schema-types.js";
import { storedStateWrites } from "./stored-state-writes.js";
import { streamOrderWarning } from "./stream-order.js";
import { SEARCH_BUDGET_SPENT, StreamingOrder } from "./streaming-order.js";
import type { ToolRegistry } from "./tool-registry.js";
import { declaresNames } from "./undeclared-near-name.js";
import { mayReadUndeclared, startUndeclaredPass, undeclaredReferences } from "./undeclared-references.js";
import { UnknownToolHints } from "./unknown-tool-hints.js";
import { makeLink, writersOf } from "./wire-edges.js";
import { IndexedWriter } from "./writer-entry.js";
import { writerTable } from "./writer-table.js";

/** The result of adding one call. */
export interface AddCallResult {
  /** True when the call has no error diagnostics and was added to the graph. */
  readonly ok: boolean;
  /** The compiled call, when it was added to the graph. */
  readonly call?: CompiledCall;
  /** Diagnostics of this call (plan-wide ones come at close). */
  readonly diagnostics: Diagnostic[];
}

/** Options of the plan builder. */
export interface PlanBuilderOptions {
  readonly firstAutoIdNumber: number;
  readonly usedCallIds: ReadonlySet<string>;
  /**
   * Streaming: refuse a call with an error (including one that would close a cycle) instead of keeping it
   * for the plan-wide passes (batch). A refused call leaves nothing behind but its diagnostics (and the
   * automatic id number it took): it is no writer, no phantom, and its `_id` stays free for a later call.
   */
  readonly refuseInvalid: boolean;
}

const MAX_CONFLICTS_PER_CALL = 20;
/** A call's `_id` when it is one `#resolveId` accepts (format only: not whether another call has it). */
const validGivenId = (given: JsonValue | undefined): string | undefined =>
  typeof given === "string" && isValidCallId(given) && !FORBIDDEN_SEGMENTS.has(given) ? given : undefined;

/** The hint of CALL_ID_INVALID. */
const CALL_ID_HINT =
  "a call id starts with a letter or _ and continues with letters, digits, _ or - (no $, which automatic ids use), and is not __proto__, prototype or constructor";
/** The feeds of a call that feeds no group (never written to). */
const NO_FEEDS: ReadonlyMap<WriterGroup, ReadonlySet<number>> = new Map();

/** Builds the plan graph one call at a time; the plan-wide passes run over its state at close. */
export class PlanBuilder {
  readonly calls: CompiledCall[] = [];
  readonly entries = new Map<string, CallEntry>();
  /** Diagnostics of the calls added so far (refused ones included), in the order they were found. */
  readonly diagnostics: Diagnostic[] = [];
  /**
   * Targets of calls that could not be compiled, with the call's plan index: they still count as writers
   * for REF_UNRESOLVED.
   */
  readonly phantomTargets = new PathIndex<number>();
  /** Ids of calls that could not be compiled. */
  readonly phantomIds = new Set<string>();
  /**
   * Calls that could not be compiled (batch only: streaming refuses them), for the close pass that still
   * reports their conflicts and unresolved references (see `phantom-calls.ts`). Empty in a valid plan.
   */
  readonly phantoms: PhantomCall[] = [];
  /** Types schema objects declare, for the type checks of this plan (see `schemaTypes`). */
  readonly declaredTypes: DeclaredTypes = new Map();
  /** Types the parameter schema admits at each shared reference location (see `referenceTypeMismatches`). */
  readonly allowedTypes = new Map<
    readonly PathSegment[],
    { readonly schema: JsonObject; readonly types: Set<string> | undefined }
  >();
  /** Internal DAG nodes: the call entries in plan order (the values of `entries`, as a list; see plan-dag.ts). */
  readonly nodes: CallEntry[] = [];
  /** True while every link goes from an earlier call to a later one (then there is no cycle). */
  planOrderIsTopological = true;
  /** Writer links made so far (held to `maxWriterLinks`). */
  writerLinks = 0;
  /** The PLAN_LIMIT a batch compile stops at, once a call would take the plan over `maxWriterLinks`. */
  overWriterLinks: Diagnostic | undefined;
  /** Bumped on every added call (the lazily built graphology graph is rebuilt when it changed). */
  version = 0;
  /**
   * True once a compiled call's output has known types (a latent call's `_output`, or a tool with an
   * output schema): until then every in-plan writer's type is unknown (see `referenceTypeMismatches`).
   */
  typedWriters = false;
  /**
   * True once a compiled call's tool has an output schema that declares names (`properties` somewhere):
   * only then can a read below a writer name an undeclared one (see `undeclaredReferences`).
   */
  namingWriters = false;
  readonly #writers = new PathIndex<WriterEntry>((entry) => !OUTPUT_METHODS[entry.method].accumulating);
  /** The plan-order commits of accumulating co-writers (edges for cycle detection only). */
  readonly #commitOrder = new CommitOrder();
  /** Streaming: a topological order of the compiled calls, so a cycle check searches only between labels. */
  readonly #order = new StreamingOrder(this.nodes);
  /** Writer groups by the path they read (shared and private). */
  readonly #groupIndex = new PathIndex<WriterGroup>();
  /** Shared writer groups by reference text. */
  readonly #groupByText = new Map<string, WriterGroup>();
  /** The private group of the first compiled call that reads a text and writes an overlapping path. */
  readonly #privateByText = new Map<string, WriterGroup>();
  /** The group later such readers of a text share (see `#groupsOfExpression`), by text. */
  readonly #cyclicByText = new Map<string, WriterGroup>();
  #nextAuto: number;
  autoIdsUsed = 0;
  /** Tools with a compiled call that has an automatic id (see `automaticIdReferences`). */
  readonly autoNamedTools = new Set<string>();

  constructor(
    readonly registry: ToolRegistry,
    readonly settings: BuilderSettings,
    readonly options: PlanBuilderOptions,
  ) {
    this.#nextAuto = options.firstAutoIdNumber;
    this.#toolHints = new UnknownToolHints(registry, settings.toolHints);
    const stateSchema = settings.context.stateSchema;
    if (stateSchema !== undefined)
      this.#stateSchemaCheck = { stateSchema, declaredTypes: this.declaredTypes, slots: new Map() };
  }

  /** True when a call of this plan (compiled or not) writes a path overlapping `kind` + `path`. */
  writesOverlapping(kind: string, path: readonly PathSegment[]): boolean {
    return this.#writers.hasOverlap(kind, path) || this.phantomTargets.hasOverlap(kind, path);
  }

  /**
   * Whether another call of this plan may change the kind of the value at `kind` + `path` before the
   * call at plan index `index` writes below it (see `storedStateWrites`, which judges the call's own
   * targets): a target above it, or one at it that does not accumulate (co-accumulators of a path keep
   * its kind); with `lengthens` (an index past an array's end), any target at or above it, and one below
   * it of an earlier call (decision 0091: a stream cannot know later ones). A call that could not be
   * compiled counts whatever its method. O(path length).
   */
  writesOver(kind: string, path: readonly PathSegment[], lengthens: boolean, index: number): boolean {
    if (!lengthens)
      return this.phantomTargets.hasAtOrAbove(kind, path) || this.#writers.hasAboveOrFlaggedAt(kind, path);
    if (this.phantomTargets.hasAtOrAbove(kind, path) || this.#writers.hasAtOrAbove(kind, path)) return true;
    const phantom = this.phantomTargets.firstBelow(kind, path);
    if (phantom !== undefined && phantom < index) return true;
    const writer = this.#writers.firstBelow(kind, path);
    return writer !== undefined && writer.index < index;
  }

  /** Adds to `out` the keys that calls of this plan write directly below `kind` + `path` (at most `max`; hints). */
  writtenKeysBelow(kind: string, path: readonly PathSegment[], out: Set<string>, max: number): void {
    this.#writers.childKeys(kind, path, out, max);
    this.phantomTargets.childKeys(kind, path, out, max);
  }

  /** True when `callId` is the only call (compiled or not) writing at or below `kind` + `path` (hints). */
  writesAloneAtOrBelow(callId: string, kind: string, path: readonly PathSegment[]): boolean {
    if (this.phantomTargets.hasOverlap(kind, path)) return false;
    const found: WriterEntry[] = [];
    this.#writers.collectOverlapping(kind, path, found);
    let alone = false;
    for (const entry of found) {
      if (entry.target.path.length < path.length) continue;
      if (entry.callId !== callId) return false;
      alone = true;
    }
    return alone;
  }

  /** Validates one call, wires it into the graph and returns its diagnostics. */
  add(source: PlanCallSource): AddCallResult {
    const out: Diagnostic[] = [];
    this.#orderWarning = undefined;
    const call = this.#add(source, out);
    let ok = call !== undefined;
    for (const diagnostic of out) if (diagnostic.severity === "error") ok = false;
    // the call's answer only: a batch compile of the same calls has no order to warn about
    if (this.#orderWarning !== undefined) out.push(this.#orderWarning);
    // Streaming: a misspelt name below a writer added before is said now, as the call starts (the answer
    // only: the close pass judges every writer of the finished plan, as a batch compile does)
    if (call !== undefined && this.options.refuseInvalid && mayReadUndeclared(this)) {
      const entry = this.entries.get(call.id);
      if (entry !== undefined) {
        startUndeclaredPass(this);
        undeclaredReferences(this, entry, out);
      }
    }
    return call === undefined ? { ok, diagnostics: out } : { ok, diagnostics: out, call };
  }

  /** `add` for a batch compile, which reads the diagnostics at close: no per-call result or list. */
  addQuietly(source: PlanCallSource): void {
    const out = this.#scratch;
    this.#add(source, out);
    clearList(out);
  }

  readonly #scratch: Diagnostic[] = [];

  /** Streaming: the STREAM_ORDER warning of the call being added (see `streamOrderWarning`). */
  #orderWarning: Diagnostic | undefined;

  /** TOOL_UNKNOWN's did-you-means, within the plan's budget (`settings.toolHints`). */
  readonly #toolHints: UnknownToolHints;
  readonly #nearTool = (name: string): string | undefined => this.#toolHints.hint(name);

  /** Writes into `†state` are checked against the thread's state schema when there is one (per-path cache). */
  readonly #stateSchemaCheck: StateSchemaCheck | undefined;

  #add(source: PlanCallSource, out: Diagnostic[]): CompiledCall | undefined {
    const raw = callObject(source.value, source.pointer, out);
    let call: CompiledCall | undefined;
    const autoBefore = this.#nextAuto;
    const autoUsedBefore = this.autoIdsUsed;
    const bareBefore = this.settings.bareSpellings?.length ?? 0;
    if (raw !== undefined) {
      const tool = callTool(raw, source.pointer, this.registry, out, validGivenId(raw._id), this.#nearTool);
      const id = this.#resolveId(raw, source.pointer, tool, out);
      const body = analyzeCallBody(raw, source.pointer, tool, id, this.settings, out);
      if (tool !== undefined && body.outputPath !== undefined) {
        checkOutputMethodValue(raw, source.pointer, tool, id, body, this.declaredTypes, out);
        if (this.#stateSchemaCheck !== undefined)
          checkStateSchemaWrites(this.#stateSchemaCheck, raw, source.pointer, tool, id, body, out);
      }
      // Streaming refuses a call with an error: as if it had never been sent (no writer, no phantom).
      if (!this.options.refuseInvalid || !hasError(out)) {
        if (tool !== undefined && id !== undefined && this.#idUsable(raw)) {
          call = this.#addCompiled(source, raw, tool, asCallId(id), body, out);
        } else {
          this.#addPhantom(raw, body, source, id);
        }
      }
    }
    // A refused streamed call gives its automatic number back: the run record keeps only the accepted
    // calls, and `resume` numbers those without gaps, so the ids (and idempotency keys) must agree.
    if (call === undefined && this.options.refuseInvalid) {
      this.#nextAuto = autoBefore;
      this.autoIdsUsed = autoUsedBefore;
    }
    // Only compiled calls' bare spellings are checked at close (a call that could not be compiled reports
    // its own errors; a refused streamed call is as if never sent).
    if (call === undefined && this.settings.bareSpellings !== undefined)
      this.settings.bareSpellings.length = bareBefore;
    appendAll(this.diagnostics, out);
    return call;
  }

  #resolveId(
    raw: JsonObject,
    pointer: string,
    tool: RegisteredTool | undefined,
    out: Diagnostic[],
  ): string | undefined {
    const given = raw._id;
    if (given === undefined) return tool === undefined ? undefined : this.#autoId(tool.name);
    // A forbidden segment (SPEC §2 rule 5) could never be read as †calls.<id>, and must never become a key.
    if (typeof given !== "string" || !isValidCallId(given) || FORBIDDEN_SEGMENTS.has(given)) {
      const hint = CALL_ID_HINT;
      const at = appendPointer(pointer, "_id");
      out.push(makeDiagnostic("CALL_ID_INVALID", `invalid call id ${JSON.stringify(given)}`, at, { hint }));
      return undefined;
    }
    // Used before: by a compiled call (auto ids hold a `$`, never equal to a given id), or by a call that
    // could not be compiled (batch). A call refused while streaming leaves its id free. No set of every
    // given id is kept.
    const compiled = this.entries.has(given);
    this.#givenIdCompiled = compiled;
    if (compiled || this.phantomIds.has(given)) {
      const at = appendPointer(pointer, "_id");
      out.push(
        makeDiagnostic("CALL_ID_DUPLICATE", `call id "${given}" is used twice`, at, {
          callId: given,
          related: [given],
          hint: "give each call its own _id (letters, digits, _ or -), or leave _id out for an automatic one",
        }),
      );
      return given;
    }
    return given;
  }

  /** Whether the valid `_id` that `#resolveId` last saw belongs to a compiled call (then it is not usable). */
  #givenIdCompiled = false;

  /** An automatic id is always usable; a given one unless a compiled call has it (known from `#resolveId`). */
  #idUsable(raw: JsonObject): boolean {
    return raw._id === undefined || !this.#givenIdCompiled;
  }

  #autoId(tool: string): string {
    let id = `${tool}$${this.#nextAuto}`;
    while (this.options.usedCallIds.has(id) || this.entries.has(id)) id = `${tool}$${++this.#nextAuto}`;
    this.#nextAuto++;
    this.autoIdsUsed++;
    return id;
  }

  #addPhantom(raw: JsonObject, body: CallBody, source: PlanCallSource, id: string | undefined): void {
    if (typeof raw._id === "string") this.phantomIds.add(raw._id);
    const outputPath = body.outputPath;
    for (const targets of outputPath?.alternatives ?? [])
      for (const t of targets) this.phantomTargets.add(t.kind, t.path, source.index);
    this.phantoms.push({
      id,
      pointer: source.pointer,
      references: body.references,
      outputPath,
      method: body.meta.outputMethod,
    });
  }

  /**
   * OUTPUT_CONFLICT of a call `id` (undefined: one without a valid id) at `pointer` writing `alternatives`
   * with `method`: for each target, the earliest compiled writer it conflicts with, one diagnostic per
   * distinct other call, at most `max`. Linear: n writers of one path give n − 1. True when one was found.
   */
  reportConflicts(
    id: string | undefined,
    pointer: string,
    alternatives: readonly (readonly OutputTarget[])[],
    method: OutputMethod,
    max: number,
    out: Diagnostic[],
  ): boolean {
    let reported: Set<string> | undefined;
    const accumulating = OUTPUT_METHODS[method].accumulating;
    for (const targets of alternatives) {
      for (const target of targets) {
        if (reported !== undefined && reported.size >= max) return true;
        const first = this.#writers.earliestCandidate(target.kind, target.path, accumulating, rankOf);
        // a call never conflicts with itself (a repeated `_id`: CALL_ID_DUPLICATE says that)
        if (first === undefined || first.callId === id || reported?.has(first.callId)) continue;
        reported ??= new Set();
        reported.add(first.callId);
        out.push(
          conflictDiagnostic({ id, pointer }, target, { id: first.callId, pointer: "" }, first.target),
        );
      }
    }
    return reported !== undefined;
  }

  #addCompiled(
    source: PlanCallSource,
    raw: JsonObject,
    tool: RegisteredTool,
    id: CallId,
    body: CallBody,
    out: Diagnostic[],
  ): CompiledCall | undefined {
    const alternatives = body.outputPath?.alternatives ?? [
      [{ kind: "calls", path: [id], text: `†calls.${id}` }],
    ];
    const texts = this.#texts;
    clearList(texts);
    this.#textPositions = undefined;
    clearList(this.#groups);
    clearList(this.#operands);
    clearList(this.#distinct);
    clearList(this.#shape);
    const single = this.#groupsOf(id, body.references, alternatives, texts);
    const groups = this.#groups;
    const feeds = this.#feedsOf(id, alternatives);
    const links = linksAdded(groups, feeds);
    if (this.writerLinks + links > this.settings.limits.maxWriterLinks) {
      this.#writerLinksLimit(source, out);
      return undefined;
    }
    if (this.options.refuseInvalid && this.#refuseCycle(id, body, alternatives, groups, feeds, source, out))
      return undefined;
    const operands = operandsOfCall(this.#operands, groups, single);
    const writers = writersOfCall(operands, groups, this.#distinct);
    const shape = single ? undefined : this.#shape.slice();
    const call = makeCompiledCall(source, raw, tool, id, body, writers, operands, shape);
    const position = this.nodes.length;
    const entry: CallEntry = {
      id,
      index: source.index,
      cost: tool.cost,
      position,
      outGroups: NO_ITEMS,
      commitNext: NO_ITEMS,
      call,
      writers,
      tool,
      alternatives,
    };
    // Before any wiring: a call refused for a conflict (streaming) must not be linked to anything.
    if (this.#checkConflicts(entry, out) && this.options.refuseInvalid) return undefined;
    // Streaming: what the plan-wide passes would say of its references and is known already refuses it,
    // as does a write the stored state refuses (a later call writing above it would conflict with it).
    if (this.options.refuseInvalid) {
      const known = knownReferenceDiagnostics(this, entry, out);
      if (storedStateWrites(this, entry, out) || known) return undefined;
    }
    this.writerLinks += links;
    const own = this.#ownLinks;
    own.length = 0;
    for (let g = 0; g < groups.length; g++) {
      const group = groups[g] as WriterGroup;
      group.readers = appended(group.readers, entry);
      if (group.readers.length > 1) continue;
      this.#register(group, entry, alternatives, own);
    }
    // Most calls feed no group (their readers come later): no iterator over the empty feeds then.
    if (feeds.size > 0) {
      this.planOrderIsTopological = false;
      if (this.options.refuseInvalid) {
        const at =
          body.outputPath === undefined ? source.pointer : appendPointer(source.pointer, "_outputPath");
        this.#orderWarning = streamOrderWarning(id, at, feeds.keys(), this.settings);
      }
      for (const [group, set] of feeds) {
        group.links.push(makeLink(id, position, set, own, alternatives.length));
        entry.outGroups = appended(entry.outGroups, group);
      }
    }
    this.#commitOrder.add(entry);
    if (raw._id === undefined) this.autoNamedTools.add(tool.name);
    this.entries.set(id, entry);
    this.nodes.push(entry);
    if (this.options.refuseInvalid) this.#order.place(position);
    this.calls.push(call);
    this.version++;
    if (call.hasOutput || tool.outputSchema !== undefined) this.typedWriters = true;
    if (!this.namingWriters && tool.outputSchema !== undefined && declaresNames(tool.outputSchema))
      this.namingWriters = true;
    for (let alternative = 0; alternative < alternatives.length; alternative++) {
      for (const target of alternatives[alternative] as readonly OutputTarget[])
        this.#writers.add(
          target.kind,
          target.path,
          new IndexedWriter(entry, alternative, target, own[alternative]),
        );
    }
    return call;
  }

  /** PLAN_LIMIT for the call that would take the plan over `maxWriterLinks` (a batch compile stops there). */
  #writerLinksLimit(source: PlanCallSource, out: Diagnostic[]): void {
    const max = this.settings.limits.maxWriterLinks;
    const message = `with this call the plan's references would have more than ${max} links to the calls that write them (maxWriterLinks)`;
    const hint =
      "each distinct reference counts one link per call writing an overlapping path: read a path many calls write once (its parent, or the whole list) rather than under many names, or raise maxWriterLinks";
    const diagnostic = makeDiagnostic("PLAN_LIMIT", message, source.pointer, { hint });
    out.push(diagnostic);
    if (!this.options.refuseInvalid) this.overWriterLinks = diagnostic;
  }

  /** Indexes a group made for the call being added (its first reader), and links its writers to it. */
  #register(
    group: WriterGroup,
    entry: CallEntry,
    alternatives: readonly (readonly OutputTarget[])[],
    own: (WriterLink | undefined)[],
  ): void {
    const text = group.reference.text;
    if (group.cyclic) this.#cyclicByText.set(text, group);
    else if (group.owner === undefined) this.#groupByText.set(text, group);
    else this.#privateByText.set(text, group);
    this.#groupIndex.add(group.reference.kind, group.reference.path, group);
    // Each link's writer by its position among the compiled calls (no lookup by id in the map of every call).
    const nodes = this.nodes;
    for (let l = 0; l < group.links.length; l++) {
      const writer = nodes[(group.links[l] as WriterLink).position];
      if (writer !== undefined) writer.outGroups = appended(writer.outGroups, group);
    }
    if (group.cyclic) {
      // Its first reader writes an overlapping path too: one of the group's writers (later ones are fed).
      const overlapping = overlappingAlternatives(alternatives, group.reference);
      group.links.push(makeLink(entry.id, entry.position, overlapping, own, alternatives.length));
      entry.outGroups = appended(entry.outGroups, group);
      this.planOrderIsTopological = false;
    }
  }

  /**
   * The writer group of each distinct operand (into `#groups`, its operand into `#distinct`; `texts` gets
   * each one's text), and the
   * operand of every operand of the call in the order readiness decides them (into `#operands`, repeats
   * included), with the expressions' shape (into `#shape`, see `CompiledCall.operandShape`). A group is
   * shared by text, private when the call writes an overlapping path. True when every expression is a
   * single operand (the shape is not needed).
   */
  #groupsOf(
    id: string,
    references: readonly ParamReference[],
    alternatives: readonly (readonly OutputTarget[])[],
    texts: string[],
  ): boolean {
    let single = true;
    for (const { value } of references) {
      if (value.type === "reference")
        single = this.#groupsOfExpression(id, value.expression, alternatives, texts) && single;
      else if (value.type === "template")
        for (const part of value.parts)
          if (typeof part !== "string")
            single = this.#groupsOfExpression(id, part, alternatives, texts) && single;
    }
    return single;
  }

  /** `#groupsOf` for one expression; true when it is a single operand. */
  #groupsOfExpression(
    id: string,
    expression: InputExpression,
    alternatives: readonly (readonly OutputTarget[])[],
    texts: string[],
  ): boolean {
    const groups = this.#groups;
    const operands = this.#operands;
    const shape = this.#shape;
    const gates = expression.alternatives;
    let single = gates.length === 1;
    shape.push(gates.length);
    for (const gate of gates) {
      shape.push(gate.length);
      if (gate.length !== 1) single = false;
      for (const operand of gate) {
        const text = operand.text;
        const seen = this.#positionOf(texts, text);
        if (seen >= 0) {
          operands.push(groups[seen] as WriterGroup);
          continue;
        }
        let group: WriterGroup;
        if (!writesOverlapping(alternatives, operand)) {
          group =
            this.#groupByText.get(text) ??
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
        this.#distinct.push(group);
        operands.push(group);
      }
    }
    return single;
  }

  /** Groups (of other calls) whose reference overlaps the new call's targets, with the overlapping alternatives. */
  #feedsOf(
    id: string,
    alternatives: readonly (readonly OutputTarget[])[],
  ): ReadonlyMap<WriterGroup, ReadonlySet<number>> {
    let feeds: Map<WriterGroup, Set<number>> | undefined;
    const hits = this.#hits;
    for (let alternative = 0; alternative < alternatives.length; alternative++) {
      for (const target of alternatives[alternative] as readonly OutputTarget[]) {
        clearList(hits);
        for (const group of this.#groupIndex.collectOverlapping(target.kind, target.path, hits)) {
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

  /** Scratch list of `#addCompiled`: the links to each alternative of the call being added (see WriterEntry). */
  readonly #ownLinks: (WriterLink | undefined)[] = [];
  /** Scratch list of `#feedsOf`. */
  readonly #hits: WriterGroup[] = [];
  /**
   * Scratch lists of `#addCompiled` (emptied when it starts): distinct operand texts and their groups,
   * every operand in readiness order, and the expressions' shape.
   */
  readonly #texts: string[] = [];
  readonly #groups: WriterGroup[] = [];
  readonly #operands: CallOperand[] = [];
  /** The operand of each of `#groups`. */
  readonly #distinct: CallOperand[] = [];
  readonly #shape: number[] = [];
  /** `#texts` by text with their positions, once it is long. */
  #textPositions: Map<string, number> | undefined;

  /** The position of `text` in `texts` when it is there; otherwise adds it and returns -1. */
  #positionOf(texts: string[], text: string): number {
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

  /**
   * Streaming: refuses a call that would close a cycle: its readers (the groups it feeds) lead back to a
   * call it reads or commits after (an earlier co-writer of a path it accumulates into).
   */
  #refuseCycle(
    id: string,
    body: CallBody,
    alternatives: readonly (readonly OutputTarget[])[],
    groups: readonly WriterGroup[],
    feeds: ReadonlyMap<WriterGroup, unknown>,
    source: PlanCallSource,
    out: Diagnostic[],
  ): boolean {
    const readers = Array.from(feeds.keys(), (group) => group.readers);
    const earlier = this.#commitOrder.earlier(body.meta.outputMethod, alternatives);
    const cycle = this.#order.check(id, readers, groups, earlier);
    if (cycle === undefined) return false;
    if (cycle === SEARCH_BUDGET_SPENT) {
      const message = `call "${id}" is not added: calls sent before it read what it writes, and this stream's checks that such a call closes no cycle have visited their limit of calls`;
      const hint =
        "send each call before the calls that read what it writes, or close this stream and send the whole plan at once (a plan compiled in one piece has no such limit)";
      out.push(makeDiagnostic("PLAN_LIMIT", message, source.pointer, { callId: id, hint }));
      return true;
    }
    const { path, commitsAfter } = cycle;
    const text = cycleText(path);
    const steps = commitOrderSteps(path, this.entries, { id, alternatives, commitsAfter });
    const message = `adding call "${id}" would close a cycle: ${text}${steps === undefined ? "" : ` (${steps.explanation})`}`;
    out.push(
      makeDiagnostic("CYCLE", message, source.pointer, {
        callId: id,
        hint: steps === undefined ? cycleHint(path, this.#readsWith(id, feeds)) : `${text}: ${steps.advice}`,
        related: path.slice(0, -1),
      }),
    );
    return true;
  }

  /**
   * Reads between calls for a cycle's hint while `id` is being added (streaming): it is in no entry yet,
   * so its own reads come from the groups just found for it, and the reads it would feed from `feeds`
   * (the groups of other calls that read what it writes). Only on the error path.
   */
  #readsWith(id: string, feeds: ReadonlyMap<WriterGroup, unknown>): ReadBetween {
    const others = readsByWriters(this.entries);
    const own = readsByWriters(new Map([[id, { writers: writerTable(this.#operands, this.#distinct) }]]));
    return (reader, writer) => {
      if (reader === id) return own(reader, writer);
      if (writer !== id) return others(reader, writer);
      for (const group of feeds.keys())
        if (group.readers.some((entry) => entry.id === reader)) return group.reference.text;
      return undefined;
    };
  }

  /** OUTPUT_CONFLICT of a compiled call against the earlier writers (see `reportConflicts`). */
  #checkConflicts(entry: CallEntry, out: Diagnostic[]): boolean {
    const call = entry.call;
    if (call.outputPath === undefined) return false;
    return this.reportConflicts(
      call.id,
      call.pointer,
      entry.alternatives,
      call.outputMethod,
      MAX_CONFLICTS_PER_CALL,
      out,
    );
  }
}

const rankOf = (entry: WriterEntry): number => entry.index;

function hasError(diagnostics: readonly Diagnostic[]): boolean {
  for (const diagnostic of diagnostics) if (diagnostic.severity === "error") return true;
  return false;
}

/**
 * A call's `operands` (exact-size). A call whose only operand reads through a shared group gets the group's
 * one list: `[operand]` is the same for all of them (a fan-out's 10k readers of one path would hold 10k
 * equal lists). Lists are never changed once made.
 */
function operandsOfCall(
  operands: readonly CallOperand[],
  groups: readonly WriterGroup[],
  single: boolean,
): readonly CallOperand[] {
  const only = operands.length === 1 && single ? (groups[0] as WriterGroup) : undefined;
  if (only !== undefined && only.owner === undefined) {
    only.soleOperands ??= [only];
    return only.soleOperands;
  }
  return operands.slice();
}

/**
 * A call's `writers` (operand text → links, see WriterTable), over its `operands`: a call with the group's
 * shared list (see `operandsOfCall`) gets the group's one table too.
 */
function writersOfCall(
  operands: readonly CallOperand[],
  groups: readonly WriterGroup[],
  distinct: readonly CallOperand[],
): ReadonlyMap<string, readonly WriterLink[]> {
  const only = groups.length === 1 ? (groups[0] as WriterGroup) : undefined;
  if (only !== undefined && operands === only.soleOperands) {
    only.soleWriters ??= writerTable(operands, operands);
    return only.soleWriters;
  }
  return writerTable(operands, distinct);
}

/** The links a call adds: its new groups' writers (a cyclic one's own link too), its links into groups it feeds. */
function linksAdded(groups: readonly WriterGroup[], feeds: ReadonlyMap<WriterGroup, unknown>): number {
  let added = feeds.size;
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g] as WriterGroup;
    if (group.readers.length === 0) added += group.links.length + (group.cyclic ? 1 : 0);
  }
  return added;
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
