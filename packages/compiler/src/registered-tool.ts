import type { JsonObject, JsonValue } from "@obelisk/core";
import type { SchemaCheck, SchemaIssue } from "./schema-validator.js";
import type { RetryPolicy, ToolContext } from "./tool-definition.js";

/** A tool after registration: schemas as JSON Schema, defaults filled, validators cached. */
export interface RegisteredTool {
  /** Unique name. */
  readonly name: string;
  /** What the tool does. */
  readonly description?: string;
  /** JSON Schema of the parameters (an object schema; `{ type: "object" }` when none was given). */
  readonly inputSchema: JsonObject;
  /**
   * True when the input takes no parameter besides those it lists (`additionalProperties: false` or
   * `unevaluatedProperties: false` at the top, or a zod object that strips or refuses unknown keys).
   */
  readonly closedInput: boolean;
  /**
   * The schema a call's parameters are checked against when it is not `inputSchema`: a zod input whose
   * nested `z.object`s drop undeclared keys, with those objects closed (`additionalProperties: false`), so
   * that a misspelt nested key is PARAM_UNKNOWN instead of silently dropped (decision 0023 §1).
   */
  readonly paramsSchema?: JsonObject;
  /** JSON Schema of the result, when known: what the tool returns (a zod output's input side). */
  readonly outputSchema?: JsonObject;
  /**
   * JSON Schema of the value stored, when it differs from `outputSchema`: for a zod output, what its parse
   * gives — each `z.object` that drops unknown keys closed (`additionalProperties: false`; not the members of
   * a union or an intersection, nor below a pipe), each pipe or transform anything (`{}`). The compiler's
   * reference checks read it (decision 0052).
   */
  readonly storedOutputSchema?: JsonObject;
  /**
   * For a zod output: checks a result (as `validateOutput`) and gives the value to store, zod's parse of it
   * (decision 0052). Absent for a JSON Schema output: the result itself is stored.
   */
  readonly parseOutput?: OutputParse;
  /** JSON Schema the `_outputPath` string must satisfy, when constrained. */
  readonly outputPathSchema?: JsonObject;
  /** Names of the `||` alternatives, when declared. */
  readonly outcomes?: readonly string[];
  /** Per-tool concurrency limit. */
  readonly concurrency?: number;
  /** Per-attempt timeout in ms. */
  readonly timeoutMs?: number;
  /** Retry policy overrides (the scheduler fills the defaults). */
  readonly retry: Partial<RetryPolicy>;
  /** Never treated as satisfied. */
  readonly fresh: boolean;
  /** How long (ms since it ended) a completed call satisfies a later identical one; Infinity: always. */
  readonly reuseForMs: number;
  /** Cost hint for critical-path priority (default 1). */
  readonly cost: number;
  /** Parameters that must be a reference under `†state.approvals.` (see `ToolDefinition.approvalParams`). */
  readonly approvalParams: readonly string[];
  /** False when a plan may not rerun the tool or raise its attempts (see `ToolDefinition.idempotent`). */
  readonly idempotent: boolean;
  /** True when the tool has no implementation: its value comes from `_output`. */
  readonly latent: boolean;
  /** The implementation (absent for latent tools). Call it with the resolved arguments. */
  readonly run?: (args: JsonObject, ctx: ToolContext) => unknown;
  /** Checks parameters against the input schema (compiled once, on first use). */
  readonly validateInput: SchemaCheck;
  /** Checks a result against the output schema (always valid when there is none). */
  readonly validateOutput: SchemaCheck;
  /** Checks an `_outputPath` string against the tool's constraint (always valid when there is none). */
  readonly validateOutputPath: SchemaCheck;
}

/** What a tool's output parse answers: the value to store, or why the result breaks the output schema. */
export type OutputParse = (
  value: JsonValue,
) =>
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly issues: readonly SchemaIssue[] };
