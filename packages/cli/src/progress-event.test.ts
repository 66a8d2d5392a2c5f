import type { RunEvent } from "obelisk";
import { describe, expect, it } from "vitest";
import { toProgressEvent } from "./progress-event.js";

/** A `call-end` event of a call that succeeded on `branch`. */
function ended(fields: Partial<Extract<RunEvent, { type: "call-end" }>>): RunEvent {
  return {
    type: "call-end",
    runId: "r",
    at: "2026-11-26T00:00:00.000Z",
    callId: "check",
    tool: "verify",
    status: "succeeded",
    attempts: 1,
    durationMs: 3,
    ...fields,
  } as RunEvent;
}

describe("the progress line of a call that took another alternative", () => {
  it("names the tool's outcome and the path it wrote", () => {
    const event = toProgressEvent(ended({ branch: 1, outcome: "rejected", branchPath: "†state.rejected" }));
    expect(event).toMatchObject({ type: "call-end", detail: "rejected → †state.rejected" });
  });

  it("gives the alternative's index when the tool names no outcomes", () => {
    const event = toProgressEvent(ended({ branch: 2, branchPath: "†state.q && †state.r" }));
    expect(event).toMatchObject({ detail: "branch 2 → †state.q && †state.r" });
  });

  it("says nothing of the first alternative (the default arm)", () => {
    const event = toProgressEvent(ended({ branch: 0, outcome: "verified", branchPath: "†state.ok" }));
    expect(event).not.toHaveProperty("detail");
  });

  it("puts the routed error after the alternative", () => {
    const event = toProgressEvent(
      ended({
        branch: 2,
        outcome: "failed",
        branchPath: "†state.error",
        error: { name: "Error", message: "down" },
      }),
    );
    expect(event).toMatchObject({ detail: "failed → †state.error, Error: down" });
  });
});

describe("the progress line of an earlier run this run ended", () => {
  it("names the run ended (supersededRunId), not this run, and whether this run continued it", () => {
    const event = {
      type: "run-superseded",
      runId: "resume",
      threadId: "t",
      at: 0,
      supersededRunId: "crashed",
      status: "cancelled",
      resumed: true,
      reason: "its process stopped",
    } as const satisfies RunEvent;
    expect(toProgressEvent(event)).toEqual({ type: "run-superseded", runId: "crashed", resumed: true });
  });
});
