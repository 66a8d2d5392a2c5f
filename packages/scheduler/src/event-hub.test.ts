import { compile, createToolRegistry } from "@obelisk/compiler";
import { asThreadId } from "@obelisk/core";
import { createMemoryStore } from "@obelisk/state";
import { describe, expect, it } from "vitest";
import { flush } from "./__fixtures__/deferred.js";
import { EventHub } from "./event-hub.js";
import { executePlan } from "./execute-plan.js";
import type { RunEvent } from "./run-event.js";

const event = (type: "run-start" | "call-start"): RunEvent =>
  type === "run-start"
    ? { type, runId: "r", at: 1, threadId: "t", planHash: "sha256:x", calls: 0 }
    : { type, runId: "r", at: 2, callId: "c", tool: "t", attempt: 1, params: {} };

/** A hub with one observer that records every event it sees. */
function recordingHub(): { hub: EventHub; seen: RunEvent[] } {
  const hub = new EventHub();
  const seen: RunEvent[] = [];
  hub.subscribe((received) => {
    seen.push(received);
  });
  return { hub, seen };
}

describe("EventHub", () => {
  it("reports an observer that throws, synchronously and in order", () => {
    const { hub, seen } = recordingHub();
    hub.subscribe(() => {
      throw new Error("observer bug");
    });
    hub.emit(event("run-start"));
    expect(seen.map((received) => received.type)).toEqual(["run-start", "observer-error"]);
  });

  it("an observer subscribed after the one that throws still gets the event before the report", () => {
    const hub = new EventHub();
    hub.subscribe(() => {
      throw new Error("observer bug");
    });
    const seen: RunEvent[] = [];
    hub.subscribe((received) => {
      seen.push(received);
    });
    hub.emit(event("call-start"));
    expect(seen.map((received) => received.type)).toEqual(["call-start", "observer-error"]);
  });

  it("H5: reports the rejection of an async observer instead of leaving it unhandled", async () => {
    const { hub, seen } = recordingHub();
    let rejectIt: (error: unknown) => void = () => {};
    hub.subscribe((received) =>
      received.type === "call-start"
        ? new Promise<void>((_, reject) => {
            rejectIt = reject;
          })
        : undefined,
    );
    hub.emit(event("call-start"));
    hub.emit(event("run-start"));
    // not awaited: both events were delivered at once, in order
    expect(seen.map((received) => received.type)).toEqual(["call-start", "run-start"]);
    rejectIt(Object.assign(new Error("log server down"), { code: "LOG_DOWN" }));
    await flush();
    expect(seen.at(-1)).toMatchObject({
      type: "observer-error",
      runId: "r",
      at: 2,
      eventType: "call-start",
      error: { code: "LOG_DOWN" },
    });
  });

  it("H5: a thenable whose then throws, and async observers failing on the report, stay quiet", async () => {
    const { hub, seen } = recordingHub();
    const hostile = {
      // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point of the test
      then() {
        throw new Error("then throws");
      },
    };
    hub.subscribe(() => hostile as unknown as undefined);
    hub.subscribe(async (received) => {
      if (received.type === "observer-error") throw new Error("fails on the report too");
    });
    hub.emit(event("run-start"));
    await flush();
    expect(seen.map((received) => received.type)).toEqual(["run-start", "observer-error"]);
    expect(seen[1]).toMatchObject({ eventType: "run-start", error: { message: "then throws" } });
  });
});

describe("EventHub in a run", () => {
  it("H5: an async observer rejecting on call-start does not break the run", async () => {
    const registry = createToolRegistry([{ name: "val", run: (args: { v?: unknown }) => args.v }]);
    const compiled = compile(
      [
        { _tool: "val", _id: "a", v: 1, _outputPath: "†state.a" },
        { _tool: "val", _id: "b", v: 2, _outputPath: "†state.b" },
      ],
      registry,
    );
    const store = createMemoryStore();
    await store.openThread(asThreadId("t"));
    const { hub, seen } = recordingHub();
    hub.subscribe(async (received) => {
      if (received.type === "call-start") throw new Error("log server down");
    });
    const result = await executePlan(compiled, {
      registry,
      store,
      threadId: "t",
      runId: "r",
      planHash: compiled.planHash,
      input: {},
      state: {},
      events: hub,
    });
    await flush();
    expect(result.status).toBe("succeeded");
    expect(result.calls.map((call) => call.status)).toEqual(["succeeded", "succeeded"]);
    const reports = seen.filter((received) => received.type === "observer-error");
    expect(reports.map((report) => report.type === "observer-error" && report.eventType)).toEqual([
      "call-start",
      "call-start",
    ]);
  });
});
