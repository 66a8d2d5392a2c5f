export { META_KEYS } from "./call-meta.js";
export { compile } from "./compile.js";
export type { CompileOptions } from "./compile-options.js";
export type {
  CallOperand,
  CompileContext,
  CompiledCall,
  CompiledPlan,
  ParamReference,
  PlanEdgeAttributes,
  PlanGraph,
  PlanJoinAttributes,
  PlanNodeAttributes,
  WriterLink,
} from "./compiled-plan.js";
export { computeCriticalPaths } from "./critical-path.js";
export { findCycles } from "./find-cycles.js";
export { fromStrictPlan } from "./from-strict-plan.js";
export { graphToDot } from "./graph-to-dot.js";
export type { GraphJson, GraphJsonJoin, GraphJsonNode } from "./graph-to-json.js";
export { graphToJson } from "./graph-to-json.js";
export { graphToMermaid } from "./graph-to-mermaid.js";
export type { IncrementalCompileOptions, IncrementalCompiler } from "./incremental-compiler.js";
export { createIncrementalCompiler } from "./incremental-compiler.js";
export { linearRegExp, UnsupportedPattern } from "./linear-reg-exp.js";
export type { AddCallResult } from "./plan-builder.js";
export { type PlanJsonSchemaOptions, planJsonSchema } from "./plan-json-schema.js";
export { REFERENCE_STRING_SCHEMA } from "./reference-string-schema.js";
export { uncopiedPlan } from "./refused-plan.js";
export type { RegisteredTool } from "./registered-tool.js";
export { schemaIssueText } from "./schema-issues.js";
export { refuseLargePatterns } from "./schema-pattern-budget.js";
export type { SchemaCheck, SchemaIssue } from "./schema-validator.js";
export { sortDiagnostics } from "./sort-diagnostics.js";
export {
  STRICT_DEVIATION_REASONS,
  type StrictDeviationReason,
  type StrictSchemaDeviation,
} from "./strict-deviation.js";
export {
  type StrictPlanJsonSchema,
  type StrictPlanJsonSchemaOptions,
  strictPlanJsonSchema,
} from "./strict-plan-json-schema.js";
export { DEFAULT_STRICT_SCHEMA_LIMITS, type StrictSchemaLimits } from "./strict-schema-rules.js";
export { strictSubsetProblems } from "./strict-subset-problems.js";
export { type ToJsonSchemaOptions, toJsonSchema } from "./to-json-schema.js";
export type {
  BranchResult,
  InferInput,
  InferOutput,
  RetryAnswer,
  RetryPolicy,
  RetryPolicyInput,
  SchemaInput,
  SpecFormTool,
  ToolContext,
  ToolDefinition,
} from "./tool-definition.js";
export { branch, defineTool, isBranchResult } from "./tool-definition.js";
export type { ToolRegistry, ToolRegistryOptions } from "./tool-registry.js";
export { createToolRegistry, isToolRegistry } from "./tool-registry.js";
