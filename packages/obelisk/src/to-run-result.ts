import { type JsonObject, type Mutable, type PlanHash, setOwn } from "@obelisk/core";
import type { CallReport, ExecutionResult } from "@obelisk/scheduler";
import type { CallOutcome, RunError, RunResult } from "./engine-types.js";

/** The run result of SPEC §10 from an execution. */
export function toRunResult(
  runId: string,
  threadId: string,
  planHash: PlanHash,
  execution: ExecutionResult,
  state: JsonObject,
): RunResult {
  const calls: Record<string, CallOutcome> = {};
  const errors: RunError[] = [];
  for (const report of execution.calls) {
    const error =
      report.error === undefined
        ? undefined
        : { code: report.error.code ?? "TOOL_ERROR", message: report.error.message };
    // Every id (even `__proto__`) becomes an own data property, never the prototype.
    setOwn(calls, report.callId, outcomeOf(report, error));
    if (report.status === "failed" && error !== undefined)
      errors.push({ callId: report.callId, call: report.call, error });
  }
  return {
    runId,
    threadId,
    planHash,
    status: execution.status,
    calls,
    errors,
    state,
    durationMs: execution.durationMs,
  };
}

/** A call's outcome, built field by field in the documented key order (no spread per call). */
function outcomeOf(report: CallReport, error: CallOutcome["error"]): CallOutcome {
  const outcome = { tool: report.tool, status: report.status } as Mutable<CallOutcome>;
  if (report.branch !== undefined) outcome.branch = report.branch;
  outcome.attempts = report.attempts;
  outcome.durationMs = report.durationMs;
  outcome.wrote = report.wrote;
  if (report.reason !== undefined) outcome.reason = report.reason;
  if (error !== undefined) outcome.error = error;
  // a satisfied unnamed call whose value the thread holds under the earlier call's id (decision 0102)
  if (report.status === "satisfied" && report.outputId !== undefined)
    (outcome as Mutable<CallOutcome & { outputId?: string }>).outputId = report.outputId;
  if (report.modified !== undefined) outcome.modified = report.modified;
  return outcome;
}
