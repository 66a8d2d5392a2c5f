import { compile, createToolRegistry } from "@obelisk/compiler";
import { asThreadId } from "@obelisk/core";
import { createMemoryStore } from "@obelisk/state";
import { afterEach, describe, expect, it, vi } from "vitest";
import { flush } from "./__fixtures__/deferred.js";
import { EventHub } from "./event-hub.js";
import { executePlan } from "./execute-plan.js";
import type { RunEvent } from "./run-event.js";

const event = (type: "run-start" | "call-start"): RunEvent =>
  type === "run-start"
    ? { type, runId: "r", at: 1, threadId: "t", planHash: "sha256:x", calls: 0 }
    : { type, runId: "r", threadId: "t", at: 2, callId: "c", tool: "t", attempt: 1, params: {} };

/** A hub with one observer that records every event it sees. */
function recordingHub(): { hub: EventHub; seen: RunEvent[] } {
  const hub = new EventHub();
  const seen: RunEvent[] = [];
  hub.subscribe((received) => {
    seen.push(received);
  });
  return { hub, seen };
}

/** Subscribes an async observer whose promise for `call-start` rejects when the returned function is called. */
function rejectingOnCallStart(hub: EventHub): (error: unknown) => void {
  let rejectIt: (error: unknown) => void = () => {};
  hub.subscribe((received) =>
    received.type === "call-start"
      ? new Promise<void>((_, reject) => {
          rejectIt = reject;
        })
      : undefined,
  );
  return (error) => rejectIt(error);
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
    const rejectIt = rejectingOnCallStart(hub);
    hub.emit(event("call-start"));
    hub.emit(event("run-start"));
    // not awaited: both events were delivered at once, in order
    expect(seen.map((received) => received.type)).toEqual(["call-start", "run-start"]);
    rejectIt(Object.assign(new Error("log server down"), { code: "LOG_DOWN" }));
    await flush();
    expect(seen.at(-1)).toMatchObject({
      type: "observer-error",
      runId: "r",
      threadId: "t",
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
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("H5: an async observer rejecting on call-start does not break the run; run-end stays last", async () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
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
    // the rejections came after run-end (the calls are synchronous): warned about, not sent after run-end
    expect(seen.at(-1)?.type).toBe("run-end");
    expect(seen.some((received) => received.type === "observer-error")).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain("call-start");
    expect(warn.mock.calls[0]?.[0]).toContain("log server down");
  });
});

describe("an observer failure nobody else takes is a process warning (SRE review 2)", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const end = (runId = "r"): RunEvent => ({
    type: "run-end",
    runId,
    threadId: "t",
    at: 3,
    status: "succeeded",
    durationMs: 1,
  });

  /** Spies on process warnings: the `[message, options]` of each. */
  function warnings(): unknown[][] {
    return vi.spyOn(process, "emitWarning").mockImplementation(() => {}).mock.calls;
  }

  it("a lone observer that throws is warned about once per run, naming the event and the error", () => {
    const warned = warnings();
    const hub = new EventHub();
    hub.subscribe(() => {
      throw new Error("exporter bug");
    });
    hub.emit(event("run-start"));
    hub.emit(event("call-start"));
    hub.emit(end());
    expect(warned).toHaveLength(1);
    const [message, options] = warned[0] as [string, { code: string }];
    expect(options.code).toBe("OBELISK_OBSERVER_ERROR");
    expect(message).toContain("run-start");
    expect(message).toContain("exporter bug");
    hub.emit({ ...event("run-start"), runId: "r2" });
    expect(warned).toHaveLength(2);
  });

  it("no warning when another observer takes the observer-error", () => {
    const warned = warnings();
    const { hub, seen } = recordingHub();
    hub.subscribe(() => {
      throw new Error("exporter bug");
    });
    hub.emit(event("call-start"));
    expect(seen.map((received) => received.type)).toEqual(["call-start", "observer-error"]);
    expect(warned).toHaveLength(0);
  });

  it("a warning when the other observers throw on the observer-error too", () => {
    const warned = warnings();
    const hub = new EventHub();
    hub.subscribe(() => {
      throw new Error("exporter bug");
    });
    hub.subscribe((received) => {
      if (received.type === "observer-error") throw new Error("the logger fails too");
    });
    hub.emit(event("call-start"));
    expect(warned).toHaveLength(1);
    expect(warned[0]?.[0]).toContain("exporter bug");
  });

  it("nothing follows run-end: a throw on it, or a rejection after it, is a warning", async () => {
    const warned = warnings();
    const { hub, seen } = recordingHub();
    const rejectIt = rejectingOnCallStart(hub);
    hub.subscribe((received) => {
      if (received.type === "run-end") throw new Error("fails on run-end");
    });
    hub.emit(event("run-start"));
    hub.emit(event("call-start"));
    hub.emit(end());
    rejectIt(new Error("late rejection"));
    await flush();
    expect(seen.map((received) => received.type)).toEqual(["run-start", "call-start", "run-end"]);
    expect(warned.map(([message]) => String(message))).toEqual([
      expect.stringContaining("fails on run-end"),
      expect.stringContaining("late rejection"),
    ]);
  });
});
