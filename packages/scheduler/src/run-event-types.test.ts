import type { RecordedError } from "@obelisk/state";
import { describe, expect, expectTypeOf, it } from "vitest";
import { type CallEndError, callEndEvent, type RunEvent } from "./run-event.js";
import type { CallReport } from "./runner-types.js";

// Type-level checks: the package's typecheck (pnpm lint) compiles this file, so a regression fails there.
describe("call-end events narrow on status, as CallOutcome does (review s40 r1 #5)", () => {
  it("a failed call's event has its error and the error's code; other statuses what they decide", () => {
    const seen: string[] = [];
    const observe = (event: RunEvent): void => {
      if (event.type !== "call-end") return;
      if (event.status === "failed") {
        expectTypeOf(event.error).toEqualTypeOf<CallEndError>();
        expectTypeOf(event.error.code).toEqualTypeOf<string>();
        seen.push(`${event.callId} ${event.error.code}`);
      } else if (event.status === "succeeded" || event.status === "satisfied") {
        expectTypeOf(event.error).toEqualTypeOf<RecordedError | undefined>();
        seen.push(`${event.callId} ${event.status}`);
      } else {
        expectTypeOf(event.reason).toEqualTypeOf<string>();
        expectTypeOf(event.error).toEqualTypeOf<undefined>();
        seen.push(`${event.callId} ${event.reason}`);
      }
    };
    const base = { tool: "t", call: {}, attempts: 1, durationMs: 0, wrote: [] };
    const reports: CallReport[] = [
      { ...base, callId: "a", status: "failed", error: { name: "Error", message: "no code" } },
      { ...base, callId: "b", status: "failed", error: { name: "Error", message: "late", code: "TIMEOUT" } },
      { ...base, callId: "c", status: "succeeded" },
      { ...base, callId: "d", status: "cancelled", reason: "run cancelled" },
    ];
    for (const report of reports)
      observe({ ...callEndEvent(report, undefined, undefined), runId: "r", threadId: "t", at: 0 });
    // a thrown error without a code is TOOL_ERROR in the event too, as in the run result
    expect(seen).toEqual(["a TOOL_ERROR", "b TIMEOUT", "c succeeded", "d run cancelled"]);
  });
});
