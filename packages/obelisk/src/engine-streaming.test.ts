import { afterEach, describe, expect, it } from "vitest";
import { Controller } from "./__fixtures__/controlled-tools.js";
import { until } from "./__fixtures__/deferred.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, type EngineOptions } from "./index.js";

const call = (id: string, extra: Record<string, unknown> = {}) => ({
  _tool: "wait",
  _id: id,
  key: id,
  ...extra,
});

describe.each(storeKinds())("streaming runs on the $name store", (kind) => {
  let engine: Engine;
  let control: Controller;
  const setup = (options: Partial<EngineOptions> = {}): Engine => {
    control = new Controller();
    engine = createEngine({ tools: [control.tool("wait")], ...options, store: kind.open() });
    return engine;
  };
  afterEach(async () => {
    await engine.close();
    kind.cleanup();
  });

  it("a call whose references already exist starts at add, before close; its dependents follow as they arrive", async () => {
    setup();
    await engine.set("s", "†state.seed", 1);
    const run = await engine.open({ threadId: "s" });
    run.add(call("a", { value: "†state.seed", _outputPath: "†state.a" }));
    await until(() => control.started.includes("a"));
    control.finish("a");
    run.add(call("b", { value: "†state.a", _outputPath: "†state.b" }));
    await until(() => control.started.includes("b"));
    control.finish("b");
    const result = await run.close();
    expect(result.status).toBe("succeeded");
    expect(result.state).toEqual({ seed: 1, a: "a", b: "b" });
  });

  it("each accepted call is in the run record before add returns (a crash mid-stream leaves them to resume)", async () => {
    setup();
    const run = await engine.open({ threadId: "s" });
    const first = call("a", { _outputPath: "†state.a" });
    run.add(first);
    expect((await engine.runs.show(run.runId)).run).toMatchObject({
      status: "running",
      plan: { type: "plan", plan: [first] },
    });
    const refused = run.add(call("bad", { _outputPath: "state.bad" }));
    expect(refused.ok).toBe(false);
    const second = { _tool: "wait", key: "b", value: "†state.a" };
    run.add(second);
    expect((await engine.runs.show(run.runId)).run.plan).toEqual({ type: "plan", plan: [first, second] });
    await until(() => control.started.includes("a"));
    control.finish("a");
    await until(() => control.started.includes("b"));
    control.finish("b");
    const result = await run.close();
    expect(result.status).toBe("succeeded");
    expect((await engine.runs.show(run.runId)).run.plan).toEqual({ type: "plan", plan: [first, second] });
  });

  it("the run's plan hash is the hash of the calls it accepted (a refused call is not part of it)", async () => {
    setup();
    const run = await engine.open({ threadId: "s" });
    const accepted = call("a", { _outputPath: "†state.a" });
    run.add(accepted);
    expect(run.add(call("bad", { _outputPath: "†state.approvals.x" })).ok).toBe(false);
    await until(() => control.started.includes("a"));
    control.finish("a");
    const result = await run.close();
    const expected = (await engine.validate({ type: "plan", plan: [accepted] }, { threadId: "other" }))
      .planHash;
    expect(result.planHash).toBe(expected);
    expect((await engine.runs.show(run.runId)).run).toMatchObject({
      planHash: expected,
      plan: { type: "plan", plan: [accepted] },
    });
  });

  it("the run's signal ends an open run: in-flight calls are aborted, the record ends cancelled and the thread is free without close()", async () => {
    setup();
    const abort = new AbortController();
    const run = await engine.open({ threadId: "s", signal: abort.signal });
    run.add(call("a", { _outputPath: "†state.a" }));
    await until(() => control.started.includes("a"));
    abort.abort();
    expect(() => run.add(call("late", { _outputPath: "†state.late" }))).toThrow(
      expect.objectContaining({ code: "USAGE", message: expect.stringContaining("was cancelled") }),
    );
    // before, the record stayed running and the thread locked (THREAD_BUSY) until the host called close()
    for (let turn = 0; turn < 200; turn++) {
      if ((await engine.runs.show(run.runId)).run.status !== "running") break;
    }
    const next = engine.run([call("next", { _outputPath: "†state.next" })], { threadId: "s" });
    await until(() => control.started.includes("next"));
    control.finish("next");
    expect((await next).status).toBe("succeeded");
    expect((await engine.runs.show(run.runId)).run.status).toBe("cancelled");
    expect(control.signals.get("a")?.aborted).toBe(true);
    const result = await run.close();
    expect(result.status).toBe("cancelled");
    expect(result.calls.a?.status).toBe("cancelled");
    expect(result.calls.late).toBeUndefined();
    expect(control.started).toEqual(["a", "next"]);
  });

  it("the engine's concurrency limit, confirm hook and failFast apply to streamed calls", async () => {
    setup({
      concurrency: 2,
      failFast: true,
      confirm: (request) =>
        request.callId === "no" ? { action: "reject", reason: "not streamed" } : { action: "approve" },
    });
    const run = await engine.open({ threadId: "s" });
    for (const id of ["x", "y", "no", "z"]) run.add(call(id, { _outputPath: `†state.${id}` }));
    await until(() => control.started.length === 2);
    expect(control.started).toEqual(["x", "y"]);
    control.fail("x", new Error("boom"));
    const result = await run.close();
    expect(control.maxInFlight).toBe(2);
    expect(result.status).toBe("failed");
    expect(result.calls.x?.status).toBe("failed");
    expect(result.calls.y?.status).toBe("cancelled");
    expect(control.signals.get("y")?.aborted).toBe(true);
    expect(result.calls.no).toMatchObject({ status: "rejected", reason: "not streamed" });
    expect(result.calls.z?.status).toBe("cancelled");
  });

  it("with scarce slots a streamed call ranks as a call nothing follows, not below every batch call", async () => {
    setup({ concurrency: 1 });
    const first = engine.run([call("first", { _outputPath: "†state.first" })], { threadId: "a" });
    await until(() => control.started.includes("first"));
    const ready: string[] = [];
    const onEvent = (event: { type: string; callId?: string }) => {
      if (event.type === "call-ready" && event.callId !== undefined) ready.push(event.callId);
    };
    const run = await engine.open({ threadId: "s", onEvent });
    run.add(call("x", { _outputPath: "†state.x" }));
    await until(() => ready.includes("x"));
    const later = engine.run([call("y", { _outputPath: "†state.y" })], { threadId: "b", onEvent });
    await until(() => ready.includes("y"));
    for (let turn = 0; turn < 20; turn++) await Promise.resolve(); // both ask the limiter for a slot
    control.finish("first");
    await until(() => control.started.length === 2);
    // before, the streamed call had priority 0: the batch call asked after it started first
    expect(control.started).toEqual(["first", "x"]);
    control.finish("x");
    await until(() => control.started.includes("y"));
    control.finish("y");
    expect((await first).status).toBe("succeeded");
    expect((await later).status).toBe("succeeded");
    expect((await run.close()).status).toBe("succeeded");
  });

  it("resume of a cut-off stream runs its unfinished calls; a reader whose writer never came fails REF_UNRESOLVED alone", async () => {
    setup();
    const abort = new AbortController();
    const run = await engine.open({ threadId: "s", signal: abort.signal });
    run.add(call("fast", { _outputPath: "†state.fast" }));
    run.add(call("slow", { _outputPath: "†state.slow" }));
    run.add(call("down", { value: "†state.slow", _outputPath: "†state.down" }));
    // accepted: a writer of †state.later may still come when it is added
    expect(run.add(call("named", { value: "†state.later", _outputPath: "†state.named" })).ok).toBe(true);
    await until(() => control.started.includes("slow"));
    control.finish("fast");
    await until(() => control.pending.has("fast") && control.inFlight === 1);
    abort.abort();
    expect((await run.close()).status).toBe("cancelled");
    expect((await engine.runs.show(run.runId)).run.streamed).toBe(true);

    // before, the stored calls were compiled as a batch plan: PLAN_INVALID, and nothing ran
    const resuming = engine.resume(run.runId);
    await until(() => control.started.filter((key) => key === "slow").length === 2);
    control.finish("slow");
    await until(() => control.started.includes("down"));
    control.finish("down");
    const resumed = await resuming;
    expect(resumed.status).toBe("failed");
    expect(Object.fromEntries(Object.entries(resumed.calls).map(([id, c]) => [id, c.status]))).toEqual({
      fast: "satisfied",
      slow: "succeeded",
      down: "succeeded",
      named: "failed",
    });
    expect(resumed.calls.named?.error?.code).toBe("REF_UNRESOLVED");
    expect(resumed.state).toEqual({ fast: "fast", slow: "slow", down: "down" });
    expect((await engine.runs.show(resumed.runId)).run.streamed).toBe(true);
  });

  it("the thread stays locked until close: a run on it meanwhile is THREAD_BUSY", async () => {
    setup();
    const run = await engine.open({ threadId: "s" });
    await expect(
      engine.run([call("other", { _outputPath: "†state.o" })], { threadId: "s" }),
    ).rejects.toMatchObject({
      code: "THREAD_BUSY",
    });
    await run.close();
    const after = engine.run([call("other", { _outputPath: "†state.o" })], { threadId: "s" });
    await until(() => control.started.includes("other"));
    control.finish("other");
    expect((await after).status).toBe("succeeded");
  });
});
