export type {
  CallOutcome,
  ConfirmDecision,
  ConfirmRequest,
  EngineOptions,
  RunError,
  RunOptions,
  RunResult,
  ValidationResult,
} from "./engine-types.js";
