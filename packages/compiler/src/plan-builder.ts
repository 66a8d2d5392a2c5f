import type { CallId, Diagnostic, JsonObject, OutputPath, OutputTarget, PlanCallSource } from "@obelisk/core";
import { appendPointer, asCallId, isValidCallId, OUTPUT_METHODS } from "@obelisk/core";
import { DirectedGraph } from "graphology";
import { willCreateCycle } from "graphology-dag";
import { analyzeCallBody, type CallBody, readCallHead } from "./analyze-call.js";
import type { BuilderSettings, CallEntry, ReaderEntry, WriterEntry } from "./builder-types.js";
import type { CompiledCall, PlanGraph, WriterLink } from "./compiled-plan.js";
import { cyclePathFrom } from "./find-cycles.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import { PathIndex } from "./path-index.js";
import type { RegisteredTool } from "./registered-tool.js";
import type { ToolRegistry } from "./tool-registry.js";
import { addEdge, makeLink, operandsOf, readersOf, writersOf } from "./wire-edges.js";

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
  /** Refuse a call that would close a cycle (streaming) instead of reporting cycles at close (batch). */
  readonly refuseCycles: boolean;
}

const MAX_CONFLICTS_PER_CALL = 20;

/** Builds the plan graph one call at a time; the plan-wide passes run over its state at close. */
export class PlanBuilder {
  readonly graph: PlanGraph = new DirectedGraph();
  readonly calls: CompiledCall[] = [];
  readonly entries = new Map<string, CallEntry>();
  /** Diagnostics with the plan index of their call (document-level ones use -1). */
  readonly diagnostics: { readonly index: number; readonly diagnostic: Diagnostic }[] = [];
  /** Targets of calls that could not be compiled: they still count as writers for REF_UNRESOLVED. */
  readonly phantomTargets = new PathIndex<true>();
  /** Ids of calls that could not be compiled. */
  readonly phantomIds = new Set<string>();
  readonly #writers = new PathIndex<WriterEntry>((entry) => !OUTPUT_METHODS[entry.method].accumulating);
  readonly #readers = new PathIndex<ReaderEntry>();
  readonly #givenIds = new Map<string, number>();
  #nextAuto: number;
  autoIdsUsed = 0;

  constructor(
    readonly registry: ToolRegistry,
    readonly settings: BuilderSettings,
    readonly options: PlanBuilderOptions,
  ) {
    this.#nextAuto = options.firstAutoIdNumber;
  }

  /** Validates one call, wires it into the graph and returns its diagnostics. */
  add(source: PlanCallSource): AddCallResult {
    const out: Diagnostic[] = [];
    const head = readCallHead(source.value, source.pointer, this.registry);
    out.push(...head.diagnostics);
    let call: CompiledCall | undefined;
    if (head.raw !== undefined) {
      const id = this.#resolveId(head.raw, source.pointer, head.tool, out);
      const body = analyzeCallBody(head.raw, source.pointer, head.tool, id, this.settings);
      out.push(...body.diagnostics);
      if (head.tool !== undefined && id !== undefined && this.#idUsable(head.raw, id)) {
        call = this.#addCompiled(source, head.raw, head.tool, asCallId(id), body, out);
      } else {
        this.#addPhantom(head.raw, body.outputPath);
      }
    }
    for (const diagnostic of out) this.diagnostics.push({ index: source.index, diagnostic });
    const ok = call !== undefined && !out.some((d) => d.severity === "error");
    return { ok, diagnostics: out, ...(call === undefined ? {} : { call }) };
  }

  #resolveId(
    raw: JsonObject,
    pointer: string,
    tool: RegisteredTool | undefined,
    out: Diagnostic[],
  ): string | undefined {
    const given = raw._id;
    if (given === undefined) return tool === undefined ? undefined : this.#autoId(tool.name);
    const at = appendPointer(pointer, "_id");
    if (typeof given !== "string" || !isValidCallId(given)) {
      const hint = "a call id is [A-Za-z_][A-Za-z0-9_-]* (no $: automatic ids use it)";
      out.push(makeDiagnostic("CALL_ID_INVALID", `invalid call id ${JSON.stringify(given)}`, at, { hint }));
      return undefined;
    }
    if (this.#givenIds.has(given)) {
      out.push(
        makeDiagnostic("CALL_ID_DUPLICATE", `call id "${given}" is used twice`, at, {
          callId: given,
          related: [given],
        }),
      );
      return given;
    }
    this.#givenIds.set(given, -1);
    return given;
  }

  #idUsable(raw: JsonObject, id: string): boolean {
    return raw._id === undefined || !this.entries.has(id);
  }

  #autoId(tool: string): string {
    let id = `${tool}$${this.#nextAuto}`;
    while (this.options.usedCallIds.has(id) || this.entries.has(id)) id = `${tool}$${++this.#nextAuto}`;
    this.#nextAuto++;
    this.autoIdsUsed++;
    return id;
  }

  #addPhantom(raw: JsonObject, outputPath: OutputPath | undefined): void {
    if (typeof raw._id === "string") this.phantomIds.add(raw._id);
    for (const targets of outputPath?.alternatives ?? [])
      for (const t of targets) this.phantomTargets.add(t.kind, t.path, true);
  }

  #addCompiled(
    source: PlanCallSource,
    raw: JsonObject,
    tool: RegisteredTool,
    id: CallId,
    body: CallBody,
    out: Diagnostic[],
  ): CompiledCall | undefined {
    const writers = new Map<string, WriterLink[]>();
    const call = makeCompiledCall(source, raw, tool, id, body, writers);
    const alternatives = body.outputPath?.alternatives ?? [
      [{ kind: "calls", path: [id], text: `†calls.${id}` }],
    ];
    const entry: CallEntry = { call, writers, tool, alternatives };
    const operands = operandsOf(body.references);
    const countOf = (callId: string) =>
      callId === id ? alternatives.length : (this.entries.get(callId)?.alternatives.length ?? 1);
    const indexOf = (callId: string) =>
      callId === id ? source.index : (this.entries.get(callId)?.call.index ?? 0);
    for (const operand of operands) {
      if (!writers.has(operand.text))
        writers.set(operand.text, writersOf(operand, id, this.#writers, countOf, indexOf));
    }
    const readers = readersOf(alternatives, id, this.#readers);
    this.graph.addNode(id, {
      tool: tool.name,
      index: source.index,
      alternatives: alternatives.map((ts) => ts.map((t) => t.text)),
      criticalPath: tool.cost,
    });
    for (const [text, links] of writers)
      for (const link of links) addEdge(this.graph, link.callId, id, link, text);
    if (this.options.refuseCycles && this.#refuseCycle(id, readers, source.pointer, out)) return undefined;
    for (const [readerId, byText] of readers) this.#linkReader(readerId, byText, id, alternatives.length);
    this.#checkConflicts(entry, out);
    this.entries.set(id, entry);
    this.calls.push(call);
    alternatives.forEach((targets, alternative) => {
      for (const target of targets)
        this.#writers.add(target.kind, target.path, {
          callId: id,
          index: source.index,
          alternative,
          target,
          method: call.outputMethod,
        });
    });
    for (const operand of operands)
      this.#readers.add(operand.kind, operand.path, { callId: id, reference: operand });
    return call;
  }

  #refuseCycle(id: string, readers: Map<string, unknown>, pointer: string, out: Diagnostic[]): boolean {
    for (const readerId of readers.keys()) {
      if (!willCreateCycle(this.graph, id, readerId)) continue;
      this.graph.addEdge(id, readerId, { alternatives: [], conditional: false, references: [] });
      const path = cyclePathFrom(this.graph, id, undefined);
      this.graph.dropNode(id);
      const message = `adding call "${id}" would close a cycle: ${path.join(" → ")}`;
      out.push(
        makeDiagnostic("CYCLE", message, pointer, {
          callId: id,
          hint: path.join(" → "),
          related: path.slice(0, -1),
        }),
      );
      return true;
    }
    return false;
  }

  #linkReader(readerId: string, byText: Map<string, Set<number>>, writerId: CallId, total: number): void {
    const reader = this.entries.get(readerId);
    if (reader === undefined) return;
    for (const [text, set] of byText) {
      const link = makeLink(writerId, set, total);
      const links = reader.writers.get(text) ?? [];
      links.push(link);
      links.sort(
        (a, b) =>
          (this.entries.get(a.callId)?.call.index ?? 0) - (this.entries.get(b.callId)?.call.index ?? 0),
      );
      reader.writers.set(text, links);
      addEdge(this.graph, writerId, readerId, link, text);
    }
  }

  /**
   * OUTPUT_CONFLICT: for each target, the earliest earlier writer it conflicts with (one diagnostic per
   * distinct earlier call, at most MAX_CONFLICTS_PER_CALL). Linear: n writers of one path give n − 1.
   */
  #checkConflicts(entry: CallEntry, out: Diagnostic[]): void {
    if (entry.call.outputPath === undefined) return;
    const reported = new Set<string>();
    const accumulating = OUTPUT_METHODS[entry.call.outputMethod].accumulating;
    for (const targets of entry.alternatives) {
      for (const target of targets) {
        if (reported.size >= MAX_CONFLICTS_PER_CALL) return;
        let first: WriterEntry | undefined;
        for (const { entry: other } of this.#writers.firstCandidates(target.kind, target.path, accumulating))
          if (first === undefined || other.index < first.index) first = other;
        if (first === undefined || reported.has(first.callId)) continue;
        reported.add(first.callId);
        out.push(conflictDiagnostic(entry, target, first));
      }
    }
  }
}

function conflictDiagnostic(entry: CallEntry, target: OutputTarget, other: WriterEntry): Diagnostic {
  const id = entry.call.id;
  const message = `calls "${other.callId}" and "${id}" both write ${target.text === other.target.text ? target.text : `${other.target.text} and ${target.text}`}`;
  const hint =
    "one writer per path: write to different paths, or use the same path with an accumulating _outputMethod (push, concat, merge, assign) in both";
  return makeDiagnostic("OUTPUT_CONFLICT", message, appendPointer(entry.call.pointer, "_outputPath"), {
    callId: id,
    hint,
    related: [other.callId, id],
  });
}

function makeCompiledCall(
  source: PlanCallSource,
  raw: JsonObject,
  tool: RegisteredTool,
  id: CallId,
  body: CallBody,
  writers: Map<string, WriterLink[]>,
): CompiledCall {
  const { meta } = body;
  return {
    id,
    index: source.index,
    pointer: source.pointer,
    tool: tool.name,
    params: body.params,
    references: body.references,
    writers,
    outputMethod: meta.outputMethod,
    hasOutput: meta.hasOutput,
    rerun: meta.rerun,
    raw,
    ...(body.outputPath === undefined ? {} : { outputPath: body.outputPath }),
    ...(meta.output === undefined ? {} : { output: meta.output }),
    ...(meta.description === undefined ? {} : { description: meta.description }),
    ...(meta.timeoutMs === undefined ? {} : { timeoutMs: meta.timeoutMs }),
    ...(meta.retry === undefined ? {} : { retry: meta.retry }),
  };
}
