import { afterEach, describe, expect, it } from "vitest";
import { Controller } from "./__fixtures__/controlled-tools.js";
import { until } from "./__fixtures__/deferred.js";
import { thrownError } from "./__fixtures__/error-codes.js";
import { runEnded } from "./__fixtures__/run-ended.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, type EngineOptions } from "./index.js";

const call = (id: string, extra: Record<string, unknown> = {}) => ({
  _tool: "wait",
  _id: id,
  key: id,
  _outputPath: `†state.${id}`,
  ...extra,
});

describe.each(storeKinds())("a streaming run with failFast on the $name store", (kind) => {
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

  const ended = (runId: string) => runEnded(engine, runId);

  it("stops at the first failure: add refuses (USAGE naming failFast and the call), the record ends failed and the thread is free before close()", async () => {
    setup();
    const stream = await engine.open({ threadId: "s", failFast: true });
    stream.add(call("a"));
    stream.add(call("boom"));
    await until(() => control.started.length === 2);
    control.fail("boom", new Error("downstream 500"));
    await until(() => control.signals.get("a")?.aborted === true);

    // before, add still answered { ok: true } and the run went on until the host closed it
    const refusal = thrownError(() => stream.add(call("late")));
    expect(refusal).toMatchObject({
      code: "USAGE",
      message: expect.stringContaining('failFast: call "boom" failed'),
      data: { runId: stream.runId, stoppedBy: "failFast", callId: "boom" },
    });
    expect(refusal.hint).toContain("close()");

    expect((await ended(stream.runId)).status).toBe("failed");
    // the thread was released without close(): another run on it is not THREAD_BUSY
    const next = engine.run([call("next")], { threadId: "s" });
    await until(() => control.started.includes("next"));
    control.finish("next");
    expect((await next).status).toBe("succeeded");

    const result = await stream.close();
    expect(result.status).toBe("failed");
    expect(result.calls.boom).toMatchObject({ status: "failed", error: { message: "downstream 500" } });
    expect(result.calls.a?.status).toBe("cancelled");
    expect(result.calls.late).toBeUndefined();
    expect(result.errors.map((error) => error.callId)).toEqual(["boom"]);
    expect(control.started).toEqual(["a", "boom", "next"]);
    // close() answers the same result again, and add keeps refusing
    expect(await stream.close()).toBe(result);
    expect(thrownError(() => stream.add(call("later"))).data).toMatchObject({ stoppedBy: "failFast" });
  });

  it("the engine's failFast stops a stream too; the record keeps the calls it accepted, to resume", async () => {
    setup({ failFast: true });
    const stream = await engine.open({ threadId: "s" });
    stream.add(call("boom"));
    stream.add(call("after", { value: "†state.boom" }));
    await until(() => control.started.includes("boom"));
    control.fail("boom", new Error("no"));
    const run = await ended(stream.runId);
    expect(run.status).toBe("failed");
    expect(run.plan).toEqual({ type: "plan", plan: [call("boom"), call("after", { value: "†state.boom" })] });
    expect(thrownError(() => stream.add(call("x"))).code).toBe("USAGE");
    const result = await stream.close();
    expect(result.calls.after?.status).not.toBe("succeeded");
  });

  it("without failFast a failure stops nothing: later calls are accepted and run", async () => {
    setup();
    const stream = await engine.open({ threadId: "s" });
    stream.add(call("boom"));
    await until(() => control.started.includes("boom"));
    control.fail("boom", new Error("no"));
    await until(() => control.pending.size === 1 && control.inFlight === 0);
    for (let turn = 0; turn < 20; turn++) await Promise.resolve();
    const added = stream.add(call("later"));
    expect(added.ok).toBe(true);
    await until(() => control.started.includes("later"));
    control.finish("later");
    const result = await stream.close();
    expect(result.status).toBe("failed");
    expect(result.calls.later?.status).toBe("succeeded");
  });

  it("a failure routed to the call's failure branch is no failure: the stream goes on", async () => {
    setup();
    const stream = await engine.open({ threadId: "s", failFast: true });
    stream.add(call("soft", { _outputPath: "†state.ok || †state.error" }));
    await until(() => control.started.includes("soft"));
    control.fail("soft", new Error("handled"));
    await until(() => control.inFlight === 0);
    for (let turn = 0; turn < 20; turn++) await Promise.resolve();
    expect(stream.add(call("next")).ok).toBe(true);
    await until(() => control.started.includes("next"));
    control.finish("next");
    const result = await stream.close();
    expect(result.status).toBe("succeeded");
    expect(result.calls.soft?.status).toBe("succeeded");
  });
});
