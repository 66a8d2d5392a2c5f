export type {
  BranchResult,
  PlanJsonSchemaOptions,
  RetryPolicy,
  SpecFormTool,
  StrictDeviationReason,
  StrictPlanJsonSchema,
  StrictPlanJsonSchemaOptions,
  StrictSchemaDeviation,
  StrictSchemaLimits,
  ToolContext,
  ToolDefinition,
  ToolRegistry,
} from "@obelisk/compiler";
export {
  branch,
  DEFAULT_STRICT_SCHEMA_LIMITS,
  defineTool,
  fromStrictPlan,
  planJsonSchema,
  STRICT_DEVIATION_REASONS,
  strictPlanJsonSchema,
} from "@obelisk/compiler";
export type {
  Diagnostic,
  DiagnosticCode,
  JsonArray,
  JsonObject,
  JsonValue,
  KindInfo,
  Limits,
  ObeliskCode,
  ObeliskErrorData,
  ObeliskErrorOf,
  PlanHash,
  RunId,
  RuntimeErrorCode,
  ThreadBusyNotStarted,
  ThreadBusyStarted,
  ThreadId,
} from "@obelisk/core";
export { asRunId, asThreadId, DEFAULT_LIMITS, ObeliskError } from "@obelisk/core";
export type { RunEvent, RunObserver, Timers } from "@obelisk/scheduler";
export type {
  CallRecord,
  CallStatus,
  GetValueOptions,
  LockHolder,
  PruneRunsResult,
  RetentionPolicy,
  RunRecord,
  RunStatus,
  StateStore,
  SummarizeOptions,
  ThreadDeletion,
  VacuumResult,
  VariableSummary,
} from "@obelisk/state";
export { createMemoryStore, RUN_STATUSES } from "@obelisk/state";
export type { AgentTool, AgentTools, AgentToolsOptions } from "./agent-tools.js";
export { agentTools } from "./agent-tools.js";
export type { PlanApprovalRequest, PlanApprover } from "./agent-tools-approval.js";
export type { AgentToolsParameters } from "./agent-tools-parameters.js";
export type {
  AgentCallError,
  AgentCallOutcome,
  AgentDiagnostic,
  AgentTooLargeItem,
  AgentToolError,
  AgentToolFailure,
  AgentWarning,
  GetVariableAnswer,
  ListVariablesAnswer,
  RunPlanAnswer,
  ValidatePlanAnswer,
} from "./agent-tools-types.js";
export { createEngine } from "./create-engine.js";
export type {
  AddResult,
  CallError,
  CallErrorCode,
  CallOutcome,
  ConfirmDecision,
  ConfirmRequest,
  Engine,
  EngineDiagnostic,
  EngineOptions,
  GetValueResult,
  GetWholeValueResult,
  KeepLastNResult,
  OpenOptions,
  RunDetails,
  RunError,
  RunHandle,
  RunOptions,
  RunResult,
  StreamingRun,
  UnsetResult,
  ValidateOptions,
  ValidationResult,
} from "./engine-types.js";
export { ENGINE_CLOSED_REASON } from "./record-run.js";
export type {
  GetStateResult,
  GetWholeStateResult,
  JsonStateCheck,
  PartialState,
  StateKey,
  TypedEngineOptions,
  ZodSchemaOf,
  ZodState,
  ZodStateEngineOptions,
  ZodStateSchema,
} from "./typed-state.js";
