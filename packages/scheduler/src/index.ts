export type { AroundTool, ToolAttemptInfo } from "./around-tool.js";
export { after, isThenable } from "./awaitable.js";
export { callHash } from "./call-hash.js";
export { CallLimiter } from "./call-limiter.js";
export type { CallSlot, Operand, SlotPhase } from "./call-slot.js";
export type { ConfirmDecision, ConfirmHook, ConfirmRequest } from "./confirm-types.js";
export { DecisionCore } from "./decision-core.js";
export type { ContextProbe, CoreEffect, DecisionCoreOptions, SettleInfo } from "./decision-types.js";
export { EventChannel } from "./event-channel.js";
export { EventHub, toRecordedError } from "./event-hub.js";
export { executePlan } from "./execute-plan.js";
export { type HeldRunEnd, holdRunEnd } from "./hold-run-end.js";
export type { InvokeOutcome, InvokeRequest } from "./invoke-tool.js";
export { invokeTool } from "./invoke-tool.js";
export { PlanRunner } from "./plan-runner.js";
export { evaluateExpression, resolveParams } from "./resolve-params.js";
export { DEFAULT_RETRY, resolveRetryPolicy, retryDelay } from "./retry-delay.js";
export type { CallEndError, CallEndEvent, RunEvent, RunEventType, RunObserver } from "./run-event.js";
export type { RunnerSettings } from "./runner-settings.js";
export type {
  CallReport,
  CallStatusFacts,
  ExecutionResult,
  ReasonedStatus,
  RunnerOptions,
} from "./runner-types.js";
export type { Timers } from "./timers.js";
export { systemTimers } from "./timers.js";
export { isApprovalReference } from "./unsatisfied-effect.js";
export { WorkingContext } from "./working-context.js";
