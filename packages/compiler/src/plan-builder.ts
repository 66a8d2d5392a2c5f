import type { CallId, Diagnostic, JsonObject, OutputTarget, PlanCallSource } from "@obelisk/core";
import { appendPointer, asCallId } from "@obelisk/core";
import { analyzeCallBody, type CallBody } from "./analyze-call.js";
import { appendAll } from "./append-all.js";
import type { BuilderSettings, CallEntry } from "./builder-types.js";
import { CallIds, validGivenId } from "./call-ids.js";
import { callObject, callTool } from "./call-tool.js";
import { checkOutputMethodValue, firstValueTypes } from "./check-output-method-value.js";
import { checkStateSchemaWrites, type StateSchemaCheck } from "./check-state-schema-writes.js";
import { clearList } from "./clear-list.js";
import { CommitOrder } from "./commit-order.js";
import type { CompiledCall, WriterLink } from "./compiled-plan.js";
import { cycleRefusal } from "./cycle-refusal.js";
import { knownReferenceDiagnostics } from "./known-references.js";
import { makeCompiledCall } from "./make-compiled-call.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import { OperandGroups } from "./operand-groups.js";
import { linksAdded, operandsOfCall, writersOfCall } from "./operands-of-call.js";
import { storedStateRefusals } from "./own-stored-write.js";
import { PlanBuilderState } from "./plan-builder-state.js";
import { appended, type WriterGroup, withOutGroup } from "./plan-dag.js";
import type { RegisteredTool } from "./registered-tool.js";
import { streamOrderWarning } from "./stream-order.js";
import { StreamingOrder } from "./streaming-order.js";
import type { ToolRegistry } from "./tool-registry.js";
import { declaresNames } from "./undeclared-near-name.js";
import { mayReadUndeclared, startUndeclaredPass, undeclaredReferences } from "./undeclared-references.js";
import { UnknownToolHints } from "./unknown-tool-hints.js";
import { makeLink } from "./wire-edges.js";
import { CompiledEntry } from "./writer-entry.js";

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

/** Builds the plan graph one call at a time; the plan-wide passes run over its state at close. */
export class PlanBuilder extends PlanBuilderState {
  /** The plan-order commits of accumulating co-writers (edges for cycle detection only). */
  readonly #commitOrder = new CommitOrder();
  /** Streaming: a topological order of the compiled calls, so a cycle check searches only between labels. */
  readonly #order = new StreamingOrder(this.nodes);
  /** Writer groups by the path and text they read, and the operands of the call being added. */
  readonly #operandGroups = new OperandGroups(this.writers);
  /** Given ids checked, automatic ones numbered. */
  readonly #ids = new CallIds(
    this.options.firstAutoIdNumber,
    this.options.usedCallIds,
    this.entries,
    this.phantomIds,
  );
  /** Tools with a compiled call that has an automatic id (see `automaticIdReferences`). */
  readonly autoNamedTools = new Set<string>();

  constructor(registry: ToolRegistry, settings: BuilderSettings, options: PlanBuilderOptions) {
    super(registry, settings, options);
    this.#toolHints = new UnknownToolHints(registry, settings.toolHints);
    const stateSchema = settings.context.stateSchema;
    if (stateSchema !== undefined)
      this.#stateSchemaCheck = { stateSchema, declaredTypes: this.declaredTypes, slots: new Map() };
  }

  /** Automatic ids given so far. */
  get autoIdsUsed(): number {
    return this.#ids.used;
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
    this.#ids.mark();
    const bareBefore = this.settings.bareSpellings?.length ?? 0;
    if (raw !== undefined) {
      const tool = callTool(raw, source.pointer, this.registry, out, validGivenId(raw._id), this.#nearTool);
      const id = this.#ids.resolve(raw, source.pointer, tool?.name, out);
      const body = analyzeCallBody(raw, source.pointer, tool, id, this.settings, out, this);
      if (tool !== undefined && body.outputPath !== undefined) {
        checkOutputMethodValue(raw, source.pointer, tool, id, body, this.declaredTypes, out);
        if (this.#stateSchemaCheck !== undefined)
          checkStateSchemaWrites(this.#stateSchemaCheck, raw, source.pointer, tool, id, body, out);
      }
      // Streaming refuses a call with an error: as if it had never been sent (no writer, no phantom).
      if (!this.options.refuseInvalid || !hasError(out)) {
        if (tool !== undefined && id !== undefined && this.#ids.usable(raw)) {
          call = this.#addCompiled(source, raw, tool, asCallId(id), body, out);
        } else {
          this.addPhantom(raw, body, source, id);
        }
      }
    }
    // A refused streamed call gives its automatic number back: the run record keeps only the accepted
    // calls, and `resume` numbers those without gaps, so the ids (and idempotency keys) must agree.
    if (call === undefined && this.options.refuseInvalid) this.#ids.rewind();
    // Only compiled calls' bare spellings are checked at close (a call that could not be compiled reports
    // its own errors; a refused streamed call is as if never sent).
    if (call === undefined && this.settings.bareSpellings !== undefined)
      this.settings.bareSpellings.length = bareBefore;
    appendAll(this.diagnostics, out);
    return call;
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
    const operandGroups = this.#operandGroups;
    operandGroups.start();
    const single = operandGroups.groupsOf(id, body.references, alternatives);
    const groups = operandGroups.groups;
    const feeds = operandGroups.feedsOf(id, alternatives);
    const links = linksAdded(groups, feeds);
    if (this.writerLinks + links > this.settings.limits.maxWriterLinks) {
      this.#writerLinksLimit(source, out);
      return undefined;
    }
    if (this.options.refuseInvalid && this.#refuseCycle(id, body, alternatives, groups, feeds, source, out))
      return undefined;
    const operands = operandsOfCall(operandGroups.operands, groups, single);
    const writers = writersOfCall(operands, groups, operandGroups.distinct);
    const shape = single ? undefined : operandGroups.shape.slice();
    const call = makeCompiledCall(source, raw, tool, id, body, writers, operands, shape);
    const position = this.nodes.length;
    const entry = new CompiledEntry(call, tool, position, alternatives);
    // Before any wiring: a call refused for a conflict (streaming) must not be linked to anything.
    if (this.#checkConflicts(entry, out) && this.options.refuseInvalid) return undefined;
    // Streaming: what the plan-wide passes would say of its references and is known already refuses it,
    // as does a write the stored state refuses (a later call writing above it would conflict with it).
    if (this.options.refuseInvalid) {
      const known = knownReferenceDiagnostics(this, entry, out);
      if (storedStateRefusals(this, entry, out) || known) return undefined;
    }
    this.writerLinks += links;
    const own = this.#ownLinks;
    own.length = 0;
    for (let g = 0; g < groups.length; g++) {
      const group = groups[g] as WriterGroup;
      group.readers = appended(group.readers, entry);
      if (group.readers.length > 1) continue;
      if (this.#operandGroups.register(group, entry, alternatives, own, this.nodes))
        this.planOrderIsTopological = false;
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
        entry.outGroups = withOutGroup(entry.outGroups, group);
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
    this.indexTargets(entry, own);
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

  /** Scratch list of `#addCompiled`: the links to each alternative of the call being added (see WriterEntry). */
  readonly #ownLinks: (WriterLink | undefined)[] = [];

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
    const call = { id, pointer: source.pointer, alternatives, feeds, groups: this.#operandGroups };
    out.push(cycleRefusal(cycle, call, this.entries));
    return true;
  }

  /** OUTPUT_CONFLICT of a compiled call against the earlier writers (see `reportConflicts`). */
  #checkConflicts(entry: CallEntry, out: Diagnostic[]): boolean {
    const call = entry.call;
    if (call.outputPath === undefined) return false;
    // the value's types matter only to a merge co-writer (see `coWriterClash`)
    const value =
      call.outputMethod === "merge"
        ? firstValueTypes(entry.tool, call.hasOutput, call.output, this.declaredTypes)
        : undefined;
    return this.reportConflicts(
      call.id,
      call.pointer,
      entry.alternatives,
      call.outputMethod,
      MAX_CONFLICTS_PER_CALL,
      out,
      value,
    );
  }
}

function hasError(diagnostics: readonly Diagnostic[]): boolean {
  for (const diagnostic of diagnostics) if (diagnostic.severity === "error") return true;
  return false;
}
