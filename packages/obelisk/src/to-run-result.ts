import type { JsonObject, PlanHash } from "@obelisk/core";
import type { ExecutionResult } from "@obelisk/scheduler";
import type { CallOutcome, RunError, RunResult } from "./engine-types.js";

/** The run result of SPEC §10 from an execution. */
export function toRunResult(
  runId: string,
  threadId: string,
  planHash: PlanHash,
  execution: ExecutionResult,
  state: JsonObject,
): RunResult {
  // Entries, not `calls[id] = …`: every id (even one the compiler would refuse) becomes an own data property.
  const entries: [string, CallOutcome][] = [];
  const errors: RunError[] = [];
  for (const report of execution.calls) {
    const error =
      report.error === undefined
        ? undefined
        : { code: report.error.code ?? "TOOL_ERROR", message: report.error.message };
    entries.push([
      report.callId,
      {
        tool: report.tool,
        status: report.status,
        ...(report.branch === undefined ? {} : { branch: report.branch }),
        attempts: report.attempts,
        durationMs: report.durationMs,
        wrote: report.wrote,
        ...(report.reason === undefined ? {} : { reason: report.reason }),
        ...(error === undefined ? {} : { error }),
      },
    ]);
    if (report.status === "failed" && error !== undefined)
      errors.push({ callId: report.callId, call: report.call, error });
  }
  return {
    runId,
    threadId,
    planHash,
    status: execution.status,
    calls: Object.fromEntries(entries),
    errors,
    state,
    durationMs: execution.durationMs,
  };
}
