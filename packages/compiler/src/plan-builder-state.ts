import type {
  Diagnostic,
  JsonObject,
  OutputMethod,
  OutputTarget,
  PathSegment,
  PlanCallSource,
} from "@obelisk/core";
import { OUTPUT_METHODS } from "@obelisk/core";
import type { CallBody } from "./analyze-call.js";
import type { BuilderSettings, CallEntry, PhantomCall, WriterEntry } from "./builder-types.js";
import { firstValueTypes } from "./check-output-method-value.js";
import { type Clash, type CoWriter, coWriterClash } from "./co-writer-clash.js";
import type { CompiledCall, WriterLink } from "./compiled-plan.js";
import { conflictDiagnostic } from "./conflict-diagnostic.js";
import { PathIndex } from "./path-index.js";
import type { PlanBuilderOptions } from "./plan-builder.js";
import type { DeclaredTypes } from "./schema-types.js";
import type { ToolRegistry } from "./tool-registry.js";
import { CompiledEntry, IndexedWriter } from "./writer-entry.js";

const rankOf = (entry: WriterEntry): number => entry.index;

/**
 * What the plan-wide passes read of a plan being built (see `PlanBuilder`, which adds the calls): the
 * compiled calls and their entries, the calls that could not be compiled, and who writes which path.
 */
export class PlanBuilderState {
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
  /** The compiled calls' targets (the writer index). */
  protected readonly writers = new PathIndex<WriterEntry>(
    (entry) => !OUTPUT_METHODS[entry.method].accumulating,
  );

  constructor(
    readonly registry: ToolRegistry,
    readonly settings: BuilderSettings,
    readonly options: PlanBuilderOptions,
  ) {}

  /** True when a call of this plan (compiled or not) writes a path overlapping `kind` + `path`. */
  writesOverlapping(kind: string, path: readonly PathSegment[]): boolean {
    return this.writers.hasOverlap(kind, path) || this.phantomTargets.hasOverlap(kind, path);
  }

  /**
   * Whether another call of this plan may change the kind of the value at `kind` + `path` before the
   * call at plan index `index` writes below it (see `storedStateWrites`, which judges the call's own
   * targets): a target above it, or one at it that does not accumulate (co-accumulators of a path keep
   * its kind); with `lengthens` (an index past an array's end), any target at or above it, and one below
   * it of an earlier call (decision 0091: a stream cannot know later ones; a later one the call waits
   * for is `storedStateWrites`' question). A call that could not be compiled counts whatever its method.
   * O(path length).
   */
  writesOver(kind: string, path: readonly PathSegment[], lengthens: boolean, index: number): boolean {
    if (!lengthens)
      return this.phantomTargets.hasAtOrAbove(kind, path) || this.writers.hasAboveOrFlaggedAt(kind, path);
    if (this.phantomTargets.hasAtOrAbove(kind, path) || this.writers.hasAtOrAbove(kind, path)) return true;
    const phantom = this.phantomTargets.firstBelow(kind, path);
    if (phantom !== undefined && phantom < index) return true;
    const writer = this.writers.firstBelow(kind, path);
    return writer !== undefined && writer.index < index;
  }

  /** Adds to `out` the keys that calls of this plan write directly below `kind` + `path` (at most `max`; hints). */
  writtenKeysBelow(kind: string, path: readonly PathSegment[], out: Set<string>, max: number): void {
    this.writers.childKeys(kind, path, out, max);
    this.phantomTargets.childKeys(kind, path, out, max);
  }

  /** True when `callId` is the only call (compiled or not) writing at or below `kind` + `path` (hints). */
  writesAloneAtOrBelow(callId: string, kind: string, path: readonly PathSegment[]): boolean {
    if (this.phantomTargets.hasOverlap(kind, path)) return false;
    const found: WriterEntry[] = [];
    this.writers.collectOverlapping(kind, path, found);
    let alone = false;
    for (const entry of found) {
      if (entry.target.path.length < path.length) continue;
      if (entry.callId !== callId) return false;
      alone = true;
    }
    return alone;
  }

  /** Indexes a compiled call's targets (`own`: the links to each of its alternatives, see WriterEntry). */
  protected indexTargets(entry: CallEntry, own: readonly (WriterLink | undefined)[]): void {
    const alternatives = entry.alternatives;
    for (let alternative = 0; alternative < alternatives.length; alternative++) {
      const targets = alternatives[alternative] as readonly OutputTarget[];
      for (let t = 0; t < targets.length; t++) {
        const target = targets[t] as OutputTarget;
        // the first target's writer entry is the call's entry itself (see CompiledEntry)
        if (alternative === 0 && t === 0 && entry instanceof CompiledEntry) {
          entry.link = own[0];
          this.writers.add(target.kind, target.path, entry);
        } else
          this.writers.add(
            target.kind,
            target.path,
            new IndexedWriter(entry, alternative, target, own[alternative]),
          );
      }
    }
  }

  /** Records a call that could not be compiled: its id, its targets and what the close pass reads of it. */
  protected addPhantom(
    raw: JsonObject,
    body: CallBody,
    source: PlanCallSource,
    id: string | undefined,
  ): void {
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
   * with `method` (`value`: the types of its first alternative's value, when known): for each target, the
   * earliest compiled writer it conflicts with — an accumulating co-writer of the same path too when the
   * two cannot both apply (`coWriterClash`, decision 0114) — one diagnostic per distinct other call, at
   * most `max`. Linear: n writers of one path give n − 1. True when one was found.
   */
  reportConflicts(
    id: string | undefined,
    pointer: string,
    alternatives: readonly (readonly OutputTarget[])[],
    method: OutputMethod,
    max: number,
    out: Diagnostic[],
    value?: Set<string>,
  ): boolean {
    let reported: Set<string> | undefined;
    const accumulating = OUTPUT_METHODS[method].accumulating;
    for (let alternative = 0; alternative < alternatives.length; alternative++) {
      for (const target of alternatives[alternative] as readonly OutputTarget[]) {
        if (reported !== undefined && reported.size >= max) return true;
        let first = this.writers.earliestCandidate(target.kind, target.path, accumulating, rankOf);
        let clash: Clash | undefined;
        if (first === undefined && accumulating) {
          // co-accumulators of the path: the first one stands for all (each later one was checked against it)
          first = this.writers.firstAt(target.kind, target.path);
          const self = { id, method, value: alternative === 0 ? value : undefined };
          clash = first === undefined ? undefined : coWriterClash(this.#coWriter(first), self);
          if (clash === undefined) continue;
        }
        // a call never conflicts with itself (a repeated `_id`: CALL_ID_DUPLICATE says that)
        if (first === undefined || first.callId === id || reported?.has(first.callId)) continue;
        reported ??= new Set();
        reported.add(first.callId);
        out.push(
          conflictDiagnostic({ id, pointer }, target, { id: first.callId, pointer: "" }, first.target, clash),
        );
      }
    }
    return reported !== undefined;
  }

  /** An indexed writer as a co-writer of its path: its value's types only for its first alternative. */
  #coWriter(writer: WriterEntry): CoWriter {
    const entry = writer.alternative === 0 ? this.entries.get(writer.callId) : undefined;
    const value =
      entry === undefined
        ? undefined
        : firstValueTypes(entry.tool, entry.call.hasOutput, entry.call.output, this.declaredTypes);
    return { id: writer.callId, method: writer.method, value };
  }
}
