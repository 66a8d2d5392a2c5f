import { compile, createToolRegistry } from "@obelisk/compiler";
import { asRunId, asThreadId } from "@obelisk/core";
import { createMemoryStore, type StateStore } from "@obelisk/state";
import { describe, expect, it } from "vitest";
import { recordEvents } from "./__fixtures__/run-events.js";
import type { EventHub } from "./event-hub.js";
import { executePlan } from "./execute-plan.js";

// Decision 0102 (review s40 r2 #15): a re-sent plan's call without `_id` is numbered anew (`echo$2`); when
// satisfied by the earlier call's record (`echo$1`), it stored another copy of the output under its new id.

let ran = 0;
const registry = createToolRegistry([
  {
    name: "echo",
    run: (args: { v: unknown }) => {
      ran++;
      return args.v;
    },
  },
]);

/** Runs `plan` on thread `t` of `store`, its automatic ids numbered from `first`. */
async function runOn(store: StateStore, plan: unknown, runId: string, first: number, events?: EventHub) {
  const compiled = compile(plan, registry, { firstAutoIdNumber: first });
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.diagnostics));
  const threadId = asThreadId("t");
  await store.openThread(threadId);
  return executePlan(compiled, {
    store,
    threadId,
    runId: asRunId(runId),
    planHash: compiled.planHash,
    input: {},
    state: await store.readState(threadId),
    registry,
    ...(events === undefined ? {} : { events }),
  });
}

describe("a satisfied call without _id whose output the thread holds under the earlier call's id", () => {
  it("stores nothing under its new id and names where its value is (outputId); its reader reads it", async () => {
    ran = 0;
    const store = createMemoryStore();
    const first = await runOn(store, [{ _tool: "echo", v: 1 }], "first", 1);
    expect(first.calls).toMatchObject([{ callId: "echo$1", status: "succeeded", wrote: ["†calls.echo$1"] }]);
    // the plan re-sent, with a reader of the re-sent call by the id it has now
    const plan = [
      { _tool: "echo", v: 1 },
      { _tool: "echo", v: "†calls.echo$2", _outputPath: "†state.read" },
    ];
    const { hub, events } = recordEvents();
    const again = await runOn(store, plan, "again", 2, hub);
    // the call-end event says it too, beside satisfiedBy
    expect(events.find((event) => event.type === "call-end" && event.callId === "echo$2")).toMatchObject({
      status: "satisfied",
      satisfiedBy: "first",
      outputId: "echo$1",
    });
    expect(again.calls[0]).toMatchObject({
      callId: "echo$2",
      status: "satisfied",
      satisfiedBy: "first",
      outputId: "echo$1",
      wrote: [],
    });
    expect(again.calls[1]).toMatchObject({ callId: "echo$3", status: "succeeded", wrote: ["†state.read"] });
    expect(again.state).toEqual({ read: 1 });
    expect(ran).toBe(2);
    expect(store.getCallOutput(asThreadId("t"), "echo$2")).toBeUndefined();
    expect(store.getCallOutput(asThreadId("t"), "echo$1")).toMatchObject({ value: 1 });
    const records = await store.listCallRecords(asRunId("again"));
    expect(records[0]).toMatchObject({ callId: "echo$2", status: "satisfied", wrote: [] });
  });

  it("a call with _id still stores its output under its own name (later plans read †calls.<_id>)", async () => {
    const store = createMemoryStore();
    await runOn(
      store,
      [
        { _tool: "echo", v: 1 },
        { _tool: "echo", v: 2 },
      ],
      "first",
      1,
    );
    const plan = [
      { _tool: "echo", _id: "mine", v: 1 },
      { _tool: "echo", v: 2 },
    ];
    const again = await runOn(store, plan, "again", 3);
    expect(again.calls[0]).toMatchObject({ callId: "mine", status: "satisfied", wrote: ["†calls.mine"] });
    expect(again.calls[0]).not.toHaveProperty("outputId");
    expect(again.calls[1]).toMatchObject({ callId: "echo$3", outputId: "echo$2", wrote: [] });
    expect(store.getCallOutput(asThreadId("t"), "mine")).toMatchObject({ value: 1 });
  });

  it("when the thread no longer holds the earlier output (evicted), it is stored under the call's own id", async () => {
    const store = createMemoryStore();
    await runOn(store, [{ _tool: "echo", v: 1 }], "first", 1);
    const held = await runOn(store, [{ _tool: "echo", v: 1 }], "held", 2);
    expect(held.calls[0]).toMatchObject({ callId: "echo$2", outputId: "echo$1", wrote: [] });
    await runOn(store, [{ _tool: "echo", v: 2 }], "second", 3);
    await store.keepLastN(asThreadId("t"), 1);
    expect(store.getCallOutput(asThreadId("t"), "echo$1")).not.toHaveProperty("value");
    const again = await runOn(store, [{ _tool: "echo", v: 1 }], "again", 4);
    expect(again.calls[0]).toMatchObject({ callId: "echo$4", status: "satisfied", wrote: ["†calls.echo$4"] });
    expect(again.calls[0]).not.toHaveProperty("outputId");
    expect(store.getCallOutput(asThreadId("t"), "echo$4")).toMatchObject({ value: 1 });
  });
});
