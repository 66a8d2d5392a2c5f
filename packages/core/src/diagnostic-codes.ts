/** Severity of a diagnostic. */
export type Severity = "error" | "warning";

/**
 * Every compile-time diagnostic code (SPEC §6), with its severity.
 * Codes are stable API; messages are not.
 */
export const DIAGNOSTIC_CODES = {
  JSON_SYNTAX: "error",
  PLAN_SHAPE: "error",
  CALL_SHAPE: "error",
  TOOL_UNKNOWN: "error",
  CALL_ID_INVALID: "error",
  CALL_ID_DUPLICATE: "error",
  META_UNKNOWN: "error",
  PARAM_INVALID: "error",
  PARAM_MISSING: "error",
  PARAM_UNKNOWN: "error",
  REF_SYNTAX: "error",
  REF_KIND_UNKNOWN: "error",
  REF_FORBIDDEN_SEGMENT: "error",
  REF_UNRESOLVED: "error",
  REF_TYPE_MISMATCH: "error",
  REF_SUSPICIOUS: "warning",
  OUTPUT_PATH_SYNTAX: "error",
  OUTPUT_PATH_READONLY: "error",
  OUTPUT_PATH_NOT_ALLOWED: "error",
  OUTPUT_CONFLICT: "error",
  OUTPUT_METHOD_INVALID: "error",
  OUTCOME_UNKNOWN: "error",
  CYCLE: "error",
  UNREACHABLE: "warning",
  LATENT_WITHOUT_OUTPUT: "warning",
  PLAN_LIMIT: "error",
  REGISTRY_DUPLICATE_TOOL: "warning",
  REGISTRY_BACKTRACKING_PATTERN: "warning",
  STREAM_ORDER: "warning",
  STREAM_SECOND_PLAN: "warning",
  REF_KIND_FORBIDDEN: "error",
} as const satisfies Record<string, Severity>;

/** A compile-time diagnostic code. */
export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/**
 * Codes of errors raised while running or storing (call errors, thrown `ObeliskError`s).
 * Stable API, like diagnostic codes.
 */
export const RUNTIME_ERROR_CODES = [
  "TOOL_ERROR",
  "TIMEOUT",
  "CANCELLED",
  "OUTPUT_NOT_JSON",
  "OUTPUT_SCHEMA_VIOLATION",
  "OUTPUT_INVALID",
  "OUTPUT_WRITE_FAILED",
  "OUTPUT_TOO_LARGE",
  "PARAM_INVALID",
  "REF_UNRESOLVED",
  "REF_EVICTED",
  "REF_SYNTAX",
  "BRANCH_INVALID",
  "PLAN_INVALID",
  "PLAN_NOT_APPROVED",
  "THREAD_BUSY",
  "RUN_NOT_FOUND",
  "RUN_NOT_RESUMABLE",
  "STORE_ERROR",
  "STORE_CLOSED",
  "USAGE",
  "CONFIRM_ERROR",
] as const;

/** A runtime error code. */
export type RuntimeErrorCode = (typeof RUNTIME_ERROR_CODES)[number];

/** Any code Obelisk reports. */
export type ObeliskCode = DiagnosticCode | RuntimeErrorCode;

/** The severity of a diagnostic code. */
export function severityOf(code: DiagnosticCode): Severity {
  return DIAGNOSTIC_CODES[code];
}
