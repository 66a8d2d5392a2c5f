import { describe, expect, it } from "vitest";
import { Controller } from "./__fixtures__/controlled-tools.js";
import { until } from "./__fixtures__/deferred.js";
import { createEngine, defineTool, type RunEvent } from "./index.js";

const flaky = defineTool({
  name: "flaky",
  input: { type: "object", properties: {} },
  retry: { attempts: 2, backoffMs: 0 },
  run: (_args, ctx) => {
    if (ctx.attempt === 1) throw new Error("first attempt fails");
    return "ok";
  },
});

describe("an engine-wide observer of two threads at once (review s34 L6)", () => {
  it("gets the run's threadId on every kind of event it sees, without a runId map", async () => {
    const control = new Controller();
    const events: RunEvent[] = [];
    const engine = createEngine({
      tools: [control.tool("wait"), flaky],
      onEvent: (event) => {
        events.push(event);
      },
    });
    // each run's own observer throws on run-start: the engine-wide one gets observer-error for it
    const broken = (event: RunEvent): void => {
      if (event.type === "run-start") throw new Error("observer broken");
    };
    const plan = (key: string) => [
      { _tool: "wait", _id: "w", key, _outputPath: "†state.w" },
      { _tool: "flaky", _id: "f", _outputPath: "†state.f" },
    ];
    const alice = engine.run(plan("alice"), { threadId: "alice", onEvent: broken });
    const stream = await engine.open({ threadId: "bob", onEvent: broken });
    for (const call of plan("bob")) stream.add(call);
    const bob = stream.close();
    await until(() => control.started.length === 2);
    control.finish("bob");
    control.finish("alice");
    const results = await Promise.all([alice, bob]);
    expect(results.map((result) => result.status)).toEqual(["succeeded", "succeeded"]);

    const byRun = new Map(results.map((result) => [result.runId, result.threadId]));
    const kinds = new Set(events.map((event) => event.type));
    expect(kinds).toEqual(
      new Set([
        "run-start",
        "observer-error",
        "call-ready",
        "call-start",
        "call-retry",
        "call-end",
        "state-write",
        "run-end",
      ]),
    );
    const wrong = events.filter((event) => event.threadId !== byRun.get(event.runId));
    expect(wrong.map((event) => event.type)).toEqual([]);
    for (const threadId of ["alice", "bob"])
      expect(
        new Set(events.filter((event) => event.threadId === threadId).map((event) => event.type)),
      ).toEqual(kinds);
    await engine.close();
  });
});
