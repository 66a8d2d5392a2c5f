import type {
  JsonObject,
  KindTable,
  Limits,
  OutputMethod,
  OutputTarget,
  TemplateExpressions,
} from "@obelisk/core";
import type { BareSpelling, ParsedStrings, SharedLocations } from "./collect-references.js";
import type { CompileContext, CompiledCall, WriterLink } from "./compiled-plan.js";
import type { DagNode } from "./plan-dag.js";
import type { RegisteredTool } from "./registered-tool.js";

/** A compiled call with what the plan-wide passes need (it is also its vertex of the internal DAG). */
export interface CallEntry extends DagNode {
  /** The compiled call (its `writers` map is `writers` below). */
  readonly call: CompiledCall;
  /** In-plan writers of each referenced path, kept up to date as calls arrive. */
  readonly writers: ReadonlyMap<string, readonly WriterLink[]>;
  /** The call's tool. */
  readonly tool: RegisteredTool;
  /** Targets per alternative; a call without `_outputPath` writes `†calls.<id>`. */
  readonly alternatives: readonly (readonly OutputTarget[])[];
}

/** One target of one call in the writer index. */
export interface WriterEntry {
  readonly callId: string;
  /** Plan index of the call. */
  readonly index: number;
  readonly alternative: number;
  readonly target: OutputTarget;
  readonly method: OutputMethod;
  /** Number of alternatives of the call's output path (1 without `||`). */
  readonly total: number;
  /**
   * The link to this alternative of the call, shared by every group it writes into (links are read-only);
   * made when first needed (most calls' links are made by their first reader).
   */
  link: WriterLink | undefined;
}

/** Settings shared by the builder's passes. */
export interface BuilderSettings {
  readonly kinds: KindTable;
  readonly limits: Limits;
  readonly context: CompileContext;
  /** The plan's own `inputSchema`, if any. */
  readonly planInputSchema?: JsonObject;
  /** Parsed reference and template strings of this plan, by text (see `collectReferences`). */
  readonly parsedStrings?: ParsedStrings;
  /** Reference locations shared by the calls of this plan (see `collectReferences`). */
  readonly sharedLocations?: SharedLocations;
  /** Template parts parsed in this plan, by text (see core's `parseParameterString`). */
  readonly templateExpressions?: TemplateExpressions;
  /** Bare `kind.path` literals of the compiled calls, checked at close against what the plan writes. */
  readonly bareSpellings?: BareSpelling[];
}
