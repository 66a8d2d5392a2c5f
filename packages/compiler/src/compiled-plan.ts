import type {
  CallId,
  Diagnostic,
  JsonObject,
  JsonValue,
  OutputMethod,
  OutputPath,
  ParameterValue,
  Path,
  PlanDocument,
  PlanHash,
  Reference,
  SourceMap,
} from "@obelisk/core";
import type { DirectedGraph } from "graphology";
import type { RetryPolicy } from "./tool-definition.js";

/** A parameter (at any depth) whose value is a reference expression or a template. */
export interface ParamReference {
  /** Where the string sits inside the call's parameters (e.g. `["user", "id"]`). */
  readonly location: Path;
  /** JSON Pointer of the string in the submitted document. */
  readonly pointer: string;
  /** The parsed value (`reference` or `template`). */
  readonly value: Extract<ParameterValue, { type: "reference" | "template" }>;
}

/** A call of this plan that writes a path overlapping a referenced path. */
export interface WriterLink {
  /** The writing call. */
  readonly callId: CallId;
  /**
   * The writer's position among the compiled calls (its place in `CompiledPlan.calls`, and in the order a
   * streaming compile accepted it: refused calls take none), so a run finds it without a lookup by id; -1
   * when not known (links the scheduler makes itself).
   */
  readonly position: number;
  /** The writer's alternatives (0-based) whose targets overlap the path. */
  readonly alternatives: readonly number[];
  /** True when not every alternative of the writer writes it (the read is conditional, SPEC §6). */
  readonly conditional: boolean;
}

/**
 * One operand of a call's input expressions with its in-plan writers (the links of `writers` under its
 * text). Operands with the same text share one; calls reading a text may share it too (its `reference` is
 * then another call's, of the same text).
 */
export interface CallOperand {
  /** The reference operand. */
  readonly reference: Reference;
  /** In-plan writers of its path (the same list `writers.get(reference.text)` returns). */
  readonly links: readonly WriterLink[];
}

/** One call after compilation. Only calls with a valid shape, a known tool and a usable id appear here. */
export interface CompiledCall {
  /** The call id (`_id`, or `<tool>$<n>`). */
  readonly id: CallId;
  /** 0-based position in plan order. */
  readonly index: number;
  /** JSON Pointer of the call in the submitted document. */
  readonly pointer: string;
  /** The tool's name. */
  readonly tool: string;
  /** The parameters as submitted (meta-properties removed). */
  readonly params: JsonObject;
  /** Every reference / template in the parameters, in document order. */
  readonly references: readonly ParamReference[];
  /**
   * In-plan writers of each referenced path, keyed by the reference's canonical text. Self excluded, except
   * in a plan with a CYCLE: a call there may list itself (decision 0042).
   */
  readonly writers: ReadonlyMap<string, readonly WriterLink[]>;
  /**
   * Every operand of every input expression (whole-value references, and each `{…}` of a template), flat,
   * in the order readiness decides them: expression by expression, `||` alternative by alternative, `&&`
   * operand by operand. A run reads these instead of walking `references`.
   */
  readonly operands: readonly CallOperand[];
  /**
   * How `operands` divide: for each expression its number of alternatives, then each alternative's number
   * of operands. Undefined when every expression is a single operand (`operands[i]` is expression `i`).
   */
  readonly operandShape: readonly number[] | undefined;
  /** The parsed `_outputPath`, if any. */
  readonly outputPath?: OutputPath;
  /** `_outputMethod` (default `set`). */
  readonly outputMethod: OutputMethod;
  /** True when the call gave `_output` (latent tools). */
  readonly hasOutput: boolean;
  /** The `_output` value, when given. */
  readonly output?: JsonValue;
  /** `_description`. */
  readonly description?: string;
  /** `_rerun: true`. */
  readonly rerun: boolean;
  /** `_timeoutMs` override. */
  readonly timeoutMs?: number;
  /** `_retry` override. */
  readonly retry?: Partial<Omit<RetryPolicy, "shouldRetry">>;
  /** The call object as submitted. */
  readonly raw: JsonObject;
}

/** Node attributes of a call in the plan graph. */
export interface PlanNodeAttributes {
  /** A call (the other node kind is a {@link PlanJoinAttributes} join). */
  readonly kind: "call";
  /** Tool name. */
  readonly tool: string;
  /** Position in plan order. */
  readonly index: number;
  /** Canonical text of every target, per alternative. */
  readonly alternatives: readonly (readonly string[])[];
  /** Remaining critical path from this node to the end of the graph, this node included (by cost). */
  readonly criticalPath: number;
}

/**
 * Node attributes of a join: the point where every writer of a path is done, drawn when a path has many
 * writers and many readers (writers → join → readers instead of an edge per pair; decision 0080).
 */
export interface PlanJoinAttributes {
  /** Tells a join from a call (`PlanNodeAttributes.kind` is `"call"`). */
  readonly kind: "join";
  /** Reference texts read through the join (each reads exactly the join's writers), in order of first read. */
  readonly references: readonly string[];
  /** The largest critical path among its readers (a join costs nothing). */
  readonly criticalPath: number;
  /**
   * Set on a join of the writers that lists differing in other writers share (`push`ers into `†state.acc`
   * read as `†state.acc[i]`, each element with a writer of its own): its references may read other
   * writers too, drawn writer → reader (decision 0080's amendment).
   */
  readonly shared?: true;
}

/** Edge attributes of the plan graph: writer → reader. */
export interface PlanEdgeAttributes {
  /** Writer alternatives the reader depends on (all of them for unconditional edges; none from a join). */
  readonly alternatives: readonly number[];
  /** True when the edge depends on one alternative being taken. */
  readonly conditional: boolean;
  /** Reference texts carried by the edge (on an edge into a join: the join's `references`). */
  readonly references: readonly string[];
}

/**
 * The DAG of a plan: one node per compiled call, keyed by call id, and a join node (`join#<n>`) per writer
 * list with many writers and many readers (decision 0080).
 */
export type PlanGraph = DirectedGraph<PlanNodeAttributes | PlanJoinAttributes, PlanEdgeAttributes>;

/** What `compile` returns. It never throws. */
export interface CompiledPlan {
  /** No error-severity diagnostics. */
  readonly ok: boolean;
  /** Hash of the plan's canonical JSON (approval binds to it). */
  readonly planHash: PlanHash;
  /** Every diagnostic, in document order. */
  readonly diagnostics: readonly Diagnostic[];
  /** The normalized document, when the input was a plan at all. */
  readonly document?: PlanDocument;
  /** Compiled calls in plan order. */
  readonly calls: readonly CompiledCall[];
  /**
   * The DAG (graphology), built on first access: one edge per (writer, reader) pair, except where many
   * writers have many readers: those are drawn through a join node (decision 0080). Prefer
   * `calls[].writers` and `criticalPaths`.
   */
  readonly graph: PlanGraph;
  /** Remaining critical path of every compiled call by id (by tool cost), without building `graph`. */
  readonly criticalPaths?: ReadonlyMap<string, number>;
  /** How many automatic ids were handed out (the engine advances the thread's counter by this). */
  readonly autoIdsUsed: number;
  /** Line/column positions of pointers, when the plan was given as text. */
  readonly sourceMap?: SourceMap;
}

/** What is known about the context at compile time (SPEC §6). All optional: unknown means "no diagnostic". */
export interface CompileContext {
  /** Snapshot of the thread's state. */
  readonly state?: JsonValue;
  /** The run's input. */
  readonly input?: JsonValue;
  /** JSON Schema of the input (in addition to the plan's own `inputSchema`). */
  readonly inputSchema?: JsonObject;
  /** JSON Schema of the thread's state. */
  readonly stateSchema?: JsonObject;
  /** Ids of call outputs stored on the thread (`†calls.<id>` from earlier runs). */
  readonly callOutputs?: ReadonlySet<string>;
  /**
   * The value stored under `†calls.<id>`, when the host can answer at once (undefined: unknown). Asked only
   * for ids in `callOutputs` that the plan reads, at most once per id per compile (the thread may hold many
   * large outputs: none is loaded that no reference names); with it, paths below a stored output are
   * checked (REF_UNRESOLVED) and typed (REF_TYPE_MISMATCH) as the state snapshot's are. A throw is unknown.
   */
  readonly callOutput?: (id: string) => { readonly value: JsonValue } | undefined;
  /**
   * The `†state` references a call of an earlier run wrote through its `_outputPath`, by call id, when the
   * host can answer at once (undefined or empty: none known). Asked only when a plan reads `†calls.<id>` of
   * a call neither the plan nor the stored outputs have: its REF_UNRESOLVED then names what to read (SPEC §3).
   */
  readonly writtenBy?: (callId: string) => readonly string[] | undefined;
  /**
   * The call (id and tool) that last wrote the stored `†state` value at a reference (`†state.p`, as the
   * store formats it: its variable's writer), when the host can answer at once (undefined: none or
   * unknown). Asked only for a call whose write the stored state refuses (decision 0091): when the call
   * itself wrote that value (a re-sent or resumed plan), it is not judged against it (decision 0114).
   */
  readonly stateWriter?: (
    reference: string,
  ) => { readonly callId: string; readonly tool: string } | undefined;
  /** Values of host-declared extra kinds. */
  readonly extraKinds?: Readonly<Record<string, JsonValue>>;
  /**
   * Whether a tool's parameter may read a host kind (the engine's `HostKind.readers`, decision 0073; `tool`
   * undefined: a call the compiler could not compile). Absent: every parameter may. A parameter string
   * that reads a kind its parameter may not is not judged against the known context (no REF_UNRESOLVED,
   * REF_TYPE_MISMATCH or did-you-mean from it): what the compiler says must not tell a plan what it may not
   * read — the host's REF_KIND_FORBIDDEN answers that string (decision 0082).
   */
  readonly mayRead?: (kind: string, tool: string | undefined, parameter: string) => boolean;
  /**
   * When and why a variable was evicted (`"evicted at <time> (<reason>)"`), by its reference text, when the
   * thread evicted it: an unresolved reference to it (or below it) then says so (SPEC §8, REF_EVICTED).
   */
  readonly evicted?: (reference: string) => string | undefined;
}
