import { describe, expect, it } from "vitest";
import { DIAGNOSTIC_CODES, RUNTIME_ERROR_CODES, severityOf } from "./diagnostic-codes.js";

/** The code table of SPEC §6, row by row (codes are stable API). */
const SPEC_TABLE = {
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
} as const;

describe("diagnostic codes", () => {
  it("hold every code of SPEC §6 with its severity", () => {
    for (const [code, severity] of Object.entries(SPEC_TABLE)) {
      expect(DIAGNOSTIC_CODES, code).toHaveProperty(code, severity);
      expect(severityOf(code as keyof typeof SPEC_TABLE)).toBe(severity);
    }
  });

  it("add only the documented project codes (two registry warnings, a stream's order warning, a second plan in streamed text, a host kind read where the host does not let it be) to the SPEC table", () => {
    const extra = Object.keys(DIAGNOSTIC_CODES).filter((code) => !Object.hasOwn(SPEC_TABLE, code));
    expect(extra).toEqual([
      "REGISTRY_DUPLICATE_TOOL",
      "REGISTRY_BACKTRACKING_PATTERN",
      "STREAM_ORDER",
      "STREAM_SECOND_PLAN",
      "REF_KIND_FORBIDDEN",
    ]);
    expect(DIAGNOSTIC_CODES.REGISTRY_DUPLICATE_TOOL).toBe("warning");
    expect(DIAGNOSTIC_CODES.REGISTRY_BACKTRACKING_PATTERN).toBe("warning");
    expect(DIAGNOSTIC_CODES.STREAM_ORDER).toBe("warning");
    expect(DIAGNOSTIC_CODES.STREAM_SECOND_PLAN).toBe("warning");
    expect(DIAGNOSTIC_CODES.REF_KIND_FORBIDDEN).toBe("error");
  });

  it("name the runtime codes of SPEC §7–8 once each", () => {
    expect(new Set(RUNTIME_ERROR_CODES).size).toBe(RUNTIME_ERROR_CODES.length);
    for (const code of ["THREAD_BUSY", "PLAN_NOT_APPROVED", "REF_EVICTED", "OUTPUT_SCHEMA_VIOLATION"])
      expect(RUNTIME_ERROR_CODES).toContain(code);
  });
});
