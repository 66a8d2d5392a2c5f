export type {
  CompileContext,
  CompiledCall,
  CompiledPlan,
  ParamReference,
  PlanEdgeAttributes,
  PlanGraph,
  PlanNodeAttributes,
  WriterLink,
} from "./compiled-plan.js";
export type {
  BranchResult,
  InferInput,
  InferOutput,
  RetryPolicy,
  SchemaInput,
  ToolContext,
  ToolDefinition,
} from "./tool-definition.js";
export { branch, defineTool, isBranchResult } from "./tool-definition.js";
