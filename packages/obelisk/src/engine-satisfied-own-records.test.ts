import { asRunId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { type Deferred, deferred, until } from "./__fixtures__/deferred.js";
import { createEngine, createMemoryStore, defineTool } from "./index.js";

/** A `step` tool whose invocations finish in the order the test says; records each idempotency key. */
function heldSteps() {
  const keys: string[] = [];
  const gates: Deferred<unknown>[] = [];
  const tool = defineTool({
    name: "step",
    input: { type: "object", properties: { n: {} } },
    run: (input: unknown, ctx) => {
      keys.push(ctx.idempotencyKey);
      const gate = deferred<unknown>();
      gates.push(gate);
      return gate.promise.then(() => (input as { n: unknown }).n);
    },
  });
  return { tool, keys, gates };
}

const twice = [
  { _tool: "step", n: 2, _outputPath: "†state.list", _outputMethod: "push" },
  { _tool: "step", n: 2, _outputPath: "†state.list", _outputMethod: "push" },
];

describe("a completed record satisfies a call of its own run (or resume chain) only when that call wrote it", () => {
  it("one run: a call whose resolved parameters equal an earlier sibling's still runs (its push is not lost)", async () => {
    const engine = createEngine({
      tools: [
        { name: "echo", input: { type: "object" }, run: (args) => (args as { v: unknown }).v },
        { name: "later", input: { type: "object" }, run: async (args) => (args as { v: unknown }).v },
      ],
    });
    const result = await engine.run(
      [
        { _tool: "echo", _id: "c1", v: 1, _outputPath: "†state.list", _outputMethod: "push" },
        { _tool: "later", _id: "w", v: 1, _outputPath: "†state.one" },
        { _tool: "echo", _id: "c2", v: "†state.one", _outputPath: "†state.list", _outputMethod: "push" },
      ],
      { threadId: "t" },
    );
    expect(result.calls.c2?.status).toBe("succeeded");
    expect(result.state).toEqual({ list: [1, 1], one: 1 });
    // a re-sent plan still runs nothing: the earlier run's records satisfy both calls
    const again = await engine.run(
      [
        { _tool: "echo", _id: "c1", v: 1, _outputPath: "†state.list", _outputMethod: "push" },
        { _tool: "echo", _id: "c2", v: 1, _outputPath: "†state.list", _outputMethod: "push" },
      ],
      { threadId: "t" },
    );
    expect(Object.values(again.calls).map((call) => call.status)).toEqual(["satisfied", "satisfied"]);
    await engine.close();
  });

  it("a satisfied call whose stored output the thread still holds writes nothing and leaves its metadata", async () => {
    let clock = 1_000;
    const engine = createEngine({
      tools: [{ name: "echo", input: { type: "object" }, run: (args) => (args as { v: unknown }).v }],
      now: () => clock,
    });
    const plan = [{ _tool: "echo", _id: "out", v: 7 }];
    const entry = async () =>
      (await engine.summarize("t", { format: "json", refs: ["†calls.out"] })).entries?.[0];
    await engine.run(plan, { threadId: "t" });
    const before = await entry();
    clock += 60_000;
    const again = await engine.run(plan, { threadId: "t" });
    expect(again.calls.out).toMatchObject({ status: "satisfied", wrote: [] });
    expect(await entry()).toEqual(before);
    await engine.close();
  });

  it("a satisfied call re-stores its output when the thread holds another run's output under its id", async () => {
    const engine = createEngine({
      tools: [{ name: "echo", input: { type: "object" }, run: (args) => (args as { v: unknown }).v }],
    });
    await engine.run([{ _tool: "echo", _id: "x", v: 1 }], { threadId: "t" });
    await engine.run([{ _tool: "echo", _id: "x", v: 2 }], { threadId: "t" });
    const again = await engine.run(
      [
        { _tool: "echo", _id: "x", v: 1 },
        { _tool: "echo", _id: "reads", v: "†calls.x", _outputPath: "†state.read" },
      ],
      { threadId: "t" },
    );
    expect(again.calls.x).toMatchObject({ status: "satisfied", wrote: ["†calls.x"] });
    expect(again.state.read).toBe(1);
    expect(await engine.get("t", "†calls.x")).toEqual({ found: true, value: 1 });
    await engine.close();
  });

  it("resume after an interruption: an unfinished call is not satisfied by its identical sibling's record", async () => {
    const held = heldSteps();
    const store = createMemoryStore();
    const engine = createEngine({ tools: [held.tool], store, concurrency: 1 });
    const abort = new AbortController();
    const running = engine.run(twice, { threadId: "t", signal: abort.signal });
    await until(() => held.gates.length === 1);
    held.gates[0]?.resolve(undefined);
    await until(() => held.gates.length === 2);
    abort.abort();
    const interrupted = await running;
    expect(interrupted.status).toBe("cancelled");
    expect(interrupted.state).toEqual({ list: [2] });

    const resuming = engine.resume(interrupted.runId);
    await until(() => held.gates.length === 3);
    held.gates[2]?.resolve(undefined);
    const resumed = await resuming;
    expect(resumed.status).toBe("succeeded");
    expect(resumed.calls.step$1?.status).toBe("satisfied");
    expect(resumed.calls.step$2?.status).toBe("succeeded");
    expect(resumed.state).toEqual({ list: [2, 2] });
    expect(held.keys).toEqual(["t:step$1", "t:step$2", "t:step$2"]);
    await engine.close();
  });

  it("resume: a completed call is satisfied by its own record though an identical sibling committed after it", async () => {
    const held = heldSteps();
    const engine = createEngine({
      tools: [
        held.tool,
        { name: "echo", input: { type: "object" }, run: (args) => (args as { v: unknown }).v },
      ],
    });
    const abort = new AbortController();
    const running = engine.run(
      [
        { _tool: "echo", _id: "p1", v: 1, _outputPath: "†state.l", _outputMethod: "push" },
        { _tool: "echo", _id: "g", v: 1, _outputPath: "†state.g" },
        { _tool: "echo", _id: "p2", v: "†state.g", _outputPath: "†state.l", _outputMethod: "push" },
        { _tool: "step", _id: "slow", n: 0 },
      ],
      { threadId: "t", signal: abort.signal },
    );
    await until(() => held.gates.length === 1);
    abort.abort();
    const interrupted = await running;
    expect(interrupted.state.l).toEqual([1, 1]);
    const resuming = engine.resume(interrupted.runId);
    await until(() => held.gates.length === 2);
    held.gates[1]?.resolve(undefined);
    const resumed = await resuming;
    expect(resumed.calls.p1?.status).toBe("satisfied");
    expect(resumed.calls.p2?.status).toBe("satisfied");
    expect(resumed.state.l).toEqual([1, 1]);
    await engine.close();
  });

  it("resume: a completed call that reads the path it writes (a counter) is satisfied, not applied twice", async () => {
    const held = heldSteps();
    let increments = 0;
    const engine = createEngine({
      tools: [
        held.tool,
        {
          name: "inc",
          input: { type: "object", properties: { n: { type: "number" } } },
          run: (args) => {
            increments++;
            return (args as { n: number }).n + 1;
          },
        },
      ],
    });
    const abort = new AbortController();
    const plan = [
      { _tool: "inc", _id: "inc", n: "†state.count || †input.zero", _outputPath: "†state.count" },
      { _tool: "step", _id: "slow", n: 0 },
    ];
    const running = engine.run(plan, { threadId: "t", input: { zero: 0 }, signal: abort.signal });
    await until(() => held.gates.length === 1 && increments === 1);
    abort.abort();
    const interrupted = await running;
    expect(interrupted.calls.inc?.status).toBe("succeeded");
    expect(interrupted.state).toEqual({ count: 1 });
    const resuming = engine.resume(interrupted.runId);
    await until(() => held.gates.length === 2);
    held.gates[1]?.resolve(undefined);
    const resumed = await resuming;
    // before, its parameters read the count it had written (n: 1 instead of 0): the key differed and it ran again
    expect(resumed.calls.inc?.status).toBe("satisfied");
    expect(resumed.calls.slow?.status).toBe("succeeded");
    expect(resumed.state).toEqual({ count: 1 });
    expect(increments).toBe(1);
    await engine.close();
  });

  it("resume: a fresh tool or a _rerun call that completed before the crash is satisfied, not run again", async () => {
    const held = heldSteps();
    let stamps = 0;
    let payments = 0;
    const engine = createEngine({
      tools: [
        held.tool,
        { name: "stamp", fresh: true, run: () => ++stamps },
        { name: "pay", input: { type: "object" }, run: () => ++payments },
        { name: "copy", input: { type: "object" }, run: (args) => (args as { v: unknown }).v },
      ],
    });
    const abort = new AbortController();
    const plan = [
      { _tool: "stamp", _id: "stamp", _outputPath: "†state.stamp" },
      { _tool: "pay", _id: "pay", _rerun: true, _outputPath: "†state.paid" },
      { _tool: "copy", _id: "copy", v: "†state.stamp", _outputPath: "†state.copy" },
      { _tool: "step", _id: "slow", n: 0 },
    ];
    const running = engine.run(plan, { threadId: "t", signal: abort.signal });
    await until(() => held.gates.length === 1);
    abort.abort();
    expect((await running).state).toEqual({ stamp: 1, paid: 1, copy: 1 });
    const resuming = engine.resume((await engine.runs.list({ threadId: "t" }))[0]?.runId as string);
    await until(() => held.gates.length === 2);
    held.gates[1]?.resolve(undefined);
    const resumed = await resuming;
    // a resume finishes the interrupted run: only the call in flight at the crash runs again
    expect(resumed.calls.stamp?.status).toBe("satisfied");
    expect(resumed.calls.pay?.status).toBe("satisfied");
    expect(resumed.calls.copy?.status).toBe("satisfied");
    expect(resumed.calls.slow?.status).toBe("succeeded");
    expect(resumed.state).toEqual({ stamp: 1, paid: 1, copy: 1 });
    expect([stamps, payments]).toEqual([1, 1]);
    // a new run of the same plan is not a resume: `fresh` and `_rerun` run again, and what reads them follows
    const again = await engine.run(plan.slice(0, 3), { threadId: "t" });
    expect(again.calls.stamp?.status).toBe("succeeded");
    expect(again.calls.pay?.status).toBe("succeeded");
    expect(again.calls.copy?.status).toBe("succeeded");
    expect(again.state).toEqual({ stamp: 2, paid: 2, copy: 2 });
    await engine.close();
  });

  it("a re-sent plan: each completed record satisfies one call, so an identical call that had not finished runs", async () => {
    const held = heldSteps();
    const engine = createEngine({
      tools: [
        held.tool,
        { name: "echo", input: { type: "object" }, run: (args) => (args as { v: unknown }).v },
      ],
      concurrency: 1,
    });
    const plan = [
      { _tool: "echo", _id: "p1", v: 1, _outputPath: "†state.l", _outputMethod: "push" },
      { _tool: "step", _id: "slow", n: 0 },
      { _tool: "echo", _id: "p2", v: 1, _outputPath: "†state.l", _outputMethod: "push" },
    ];
    const abort = new AbortController();
    const running = engine.run(plan, { threadId: "t", signal: abort.signal });
    await until(() => held.gates.length === 1);
    abort.abort();
    expect((await running).state.l).toEqual([1]);
    // sent again with run (not resume): p1 is satisfied by its record, p2 had not run and runs now
    const again = engine.run(plan, { threadId: "t" });
    await until(() => held.gates.length === 2);
    held.gates[1]?.resolve(undefined);
    const second = await again;
    expect(second.calls.p1?.status).toBe("satisfied");
    expect(second.calls.p2?.status).toBe("succeeded");
    expect(second.state.l).toEqual([1, 1]);
    // and once every call has a record, sending it again runs nothing
    const third = await engine.run(plan, { threadId: "t" });
    expect(Object.values(third.calls).map((call) => call.status)).toEqual([
      "satisfied",
      "satisfied",
      "satisfied",
    ]);
    expect(third.state.l).toEqual([1, 1]);
    await engine.close();
  });

  it("resume of a crashed resume keeps the original ids, and ends every crashed run of the chain", async () => {
    const held = heldSteps();
    const store = createMemoryStore();
    const engine = createEngine({ tools: [held.tool], store, concurrency: 1 });
    // outputs stored under †calls.<automatic id> only: a shifted id would store a call under another's name
    const plan = [
      { _tool: "step", n: 2 },
      { _tool: "step", n: 3 },
    ];
    const abort = new AbortController();
    const running = engine.run(plan, { threadId: "t", signal: abort.signal });
    await until(() => held.gates.length === 1);
    held.gates[0]?.resolve(undefined);
    await until(() => held.gates.length === 2);
    abort.abort();
    const original = await running;
    // as after two crashes: the original still `running`, and a resume of it that died at once (recorded
    // `running`, no call records)
    const originalId = asRunId(original.runId);
    const crashed = await store.getRun(originalId);
    if (crashed === undefined) throw new Error("no original record");
    await store.finishRun(originalId, "running", "x");
    await store.createRun({
      ...crashed,
      runId: asRunId("crashed-resume"),
      resumeOf: originalId,
      status: "running",
    });

    const resuming = engine.resume("crashed-resume");
    await until(() => held.gates.length === 3);
    held.gates[2]?.resolve(undefined);
    const resumed = await resuming;
    expect(resumed.status).toBe("succeeded");
    expect(Object.keys(resumed.calls)).toEqual(["step$1", "step$2"]);
    expect(held.keys).toEqual(["t:step$1", "t:step$2", "t:step$2"]);
    expect(await engine.get("t", "†calls.step$2")).toMatchObject({ value: 3 });
    expect(await engine.get("t", "†calls.step$3")).toMatchObject({ found: false });
    expect((await engine.runs.show("crashed-resume")).run.status).toBe("cancelled");
    expect((await engine.runs.show(original.runId)).run.status).toBe("cancelled");
    expect((await engine.runs.show(resumed.runId)).run).toMatchObject({ resumeOf: "crashed-resume" });
    await engine.close();
  });
});
