import type {
  JsonObject,
  KindTable,
  Limits,
  OutputMethod,
  OutputPath,
  OutputTarget,
  TemplateExpressions,
} from "@obelisk/core";
import type { BareSpelling } from "./collect-references.js";
import type { CompileContext, CompiledCall, ParamReference, WriterLink } from "./compiled-plan.js";
import type { HintBudget } from "./hint-budget.js";
import type { ParsedStrings } from "./parsed-strings.js";
import type { DagNode } from "./plan-dag.js";
import type { RegisteredTool } from "./registered-tool.js";
import type { SharedLocations } from "./shared-locations.js";
import type { ViolationListing } from "./violation-listing.js";

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

/** A call that could not be compiled (unknown tool, bad or repeated `_id`), as the close pass sees it. */
export interface PhantomCall {
  /** Its `_id` when valid (a repeated one included); undefined otherwise. */
  readonly id: string | undefined;
  readonly pointer: string;
  readonly references: readonly ParamReference[];
  readonly outputPath: OutputPath | undefined;
  readonly method: OutputMethod;
}

/** One target of one call in the writer index. */
export interface WriterEntry {
  readonly callId: string;
  /** Plan index of the call. */
  readonly index: number;
  /** The call's position among the compiled calls (`WriterLink.position`). */
  readonly position: number;
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
  /** How many schema violations the plan still lists (decision 0076). */
  readonly violationListing?: ViolationListing;
  /** The did-you-means the plan may still give parameters a zod object drops (`MAX_STRIPPED_HINTS`). */
  readonly strippedHints: HintBudget;
  /** The did-you-means the plan may still give unknown tool names (`MAX_TOOL_HINTS`). */
  readonly toolHints: HintBudget;
}
