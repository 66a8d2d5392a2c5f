import { afterEach, describe, expect, it } from "vitest";
import { Controller } from "./__fixtures__/controlled-tools.js";
import { until } from "./__fixtures__/deferred.js";
import { thrownError } from "./__fixtures__/error-codes.js";
import { runEnded } from "./__fixtures__/run-ended.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, type Timers } from "./index.js";

const call = (id: string, extra: Record<string, unknown> = {}) => ({
  _tool: "wait",
  _id: id,
  key: id,
  _outputPath: `†state.${id}`,
  ...extra,
});

/** Timers the test moves by hand: `advance(ms)` fires what is due, in order (no real time passes). */
class ManualTimers implements Timers {
  now = 0;
  private next = 0;
  readonly due = new Map<number, { at: number; callback: () => void }>();
  setTimeout(callback: () => void, ms: number): unknown {
    const handle = this.next++;
    this.due.set(handle, { at: this.now + ms, callback });
    return handle;
  }
  clearTimeout(handle: unknown): void {
    this.due.delete(handle as number);
  }
  advance(ms: number): void {
    this.now += ms;
    for (const [handle, timer] of [...this.due].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > this.now) break;
      this.due.delete(handle);
      timer.callback();
    }
  }
}

describe.each(storeKinds())("a streaming run's idle timeout on the $name store", (kind) => {
  let engine: Engine;
  let control: Controller;
  let timers: ManualTimers;
  const setup = (): Engine => {
    control = new Controller();
    timers = new ManualTimers();
    engine = createEngine({ tools: [control.tool("wait")], timers, store: kind.open() });
    return engine;
  };
  afterEach(async () => {
    await engine.close();
    kind.cleanup();
  });

  const ended = (runId: string) => runEnded(engine, runId);

  it("closes an abandoned stream as close() would: the thread is released, add refuses saying why, close() answers that result", async () => {
    setup();
    const stream = await engine.open({ threadId: "s", idleTimeoutMs: 1000 });
    stream.add(call("a"));
    stream.add(call("reader", { value: "†state.never" }));
    await until(() => control.started.includes("a"));
    control.finish("a");
    timers.advance(999);
    // not yet: the thread is still held
    await expect(engine.run([call("other")], { threadId: "s" })).rejects.toMatchObject({
      code: "THREAD_BUSY",
    });
    timers.advance(1);
    expect((await ended(stream.runId)).status).toBe("failed");

    const refusal = thrownError(() => stream.add(call("late")));
    expect(refusal).toMatchObject({
      code: "USAGE",
      message: expect.stringContaining("closed itself after 1000 ms without a call"),
      data: { runId: stream.runId, stoppedBy: "idle", idleTimeoutMs: 1000 },
    });
    expect(refusal.hint).toContain("idleTimeoutMs");

    const result = await stream.close();
    expect(result.calls.a?.status).toBe("succeeded");
    // the reference nothing was added to write ended as close() ends it
    expect(result.calls.reader).toMatchObject({ status: "failed", error: { code: "REF_UNRESOLVED" } });
    expect(result.calls.late).toBeUndefined();
    expect(await stream.close()).toBe(result);

    // the thread is free
    const next = engine.run([call("next")], { threadId: "s" });
    await until(() => control.started.includes("next"));
    control.finish("next");
    expect((await next).status).toBe("succeeded");
  });

  it("every add starts the wait again; a stream closed in time never closes itself", async () => {
    setup();
    const stream = await engine.open({ threadId: "s", idleTimeoutMs: 1000 });
    timers.advance(600);
    stream.add(call("a"));
    timers.advance(600);
    // a refused call shows the host alive too
    expect(stream.add({ _tool: "nope" }).ok).toBe(false);
    timers.advance(600);
    expect(stream.add(call("b")).ok).toBe(true);
    await until(() => control.started.length === 2);
    control.finish("a");
    control.finish("b");
    const result = await stream.close();
    expect(result.status).toBe("succeeded");
    // the timer is gone: nothing fires after close
    expect(timers.due.size).toBe(0);
    timers.advance(10_000);
    expect(thrownError(() => stream.add(call("late"))).data).toMatchObject({ stoppedBy: "close" });
  });

  it("calls in flight when the stream goes idle finish and are stored before the thread is released", async () => {
    setup();
    const stream = await engine.open({ threadId: "s", idleTimeoutMs: 50 });
    stream.add(call("slow"));
    await until(() => control.started.includes("slow"));
    timers.advance(50);
    // closed: it takes no more calls, but the call in flight is not aborted
    expect(thrownError(() => stream.add(call("late"))).data).toMatchObject({ stoppedBy: "idle" });
    expect(control.signals.get("slow")?.aborted).toBe(false);
    await expect(engine.run([call("other")], { threadId: "s" })).rejects.toMatchObject({
      code: "THREAD_BUSY",
    });
    control.finish("slow", "done");
    const result = await stream.close();
    expect(result.status).toBe("succeeded");
    expect(await engine.get("s", "†state.slow")).toMatchObject({ found: true, value: "done" });
    // the grace for calls in flight ended with them: no timer is left to abort anything
    expect(timers.due.size).toBe(0);
  });

  it("a call still running idleTimeoutMs after the idle close gets the abort; a tool that ignores it no longer holds the thread (decision 0064)", async () => {
    setup();
    const stream = await engine.open({ threadId: "s", idleTimeoutMs: 50 });
    stream.add(call("done"));
    stream.add(call("stuck"));
    await until(() => control.started.length === 2);
    control.finish("done");
    timers.advance(50);
    timers.advance(49);
    // within the grace the call runs on and the thread stays held
    expect(control.signals.get("stuck")?.aborted).toBe(false);
    await expect(engine.run([call("other")], { threadId: "s" })).rejects.toMatchObject({
      code: "THREAD_BUSY",
    });
    timers.advance(1);
    await until(() => control.signals.get("stuck")?.aborted === true);
    // the tool ignores its signal and never answers: the run ends anyway, as an aborted run does
    const result = await stream.close();
    expect(result.status).toBe("cancelled");
    expect(result.calls.done?.status).toBe("succeeded");
    expect(result.calls.stuck).toMatchObject({
      status: "cancelled",
      reason:
        "run cancelled: the stream closed itself after 50 ms without a call (its idleTimeoutMs) and its calls still ran 50 ms later",
    });
    expect((await ended(stream.runId)).status).toBe("cancelled");
    expect(thrownError(() => stream.add(call("late"))).data).toMatchObject({ stoppedBy: "idle" });
    // the thread is free, and the abandoned call's late answer is not stored
    const next = engine.run([call("next")], { threadId: "s" });
    await until(() => control.started.includes("next"));
    control.finish("next");
    expect((await next).status).toBe("succeeded");
    control.finish("stuck", "too late");
    expect(await engine.get("s", "†state.stuck")).toMatchObject({ found: false });
    expect(await engine.get("s", "†state.done")).toMatchObject({ found: true, value: "done" });
  });

  it("a stream its host closed before it went idle is never aborted by the timeout, however long its calls run", async () => {
    setup();
    const stream = await engine.open({ threadId: "s", idleTimeoutMs: 50 });
    stream.add(call("long"));
    await until(() => control.started.includes("long"));
    const closing = stream.close();
    timers.advance(10_000);
    expect(control.signals.get("long")?.aborted).toBe(false);
    control.finish("long");
    expect((await closing).status).toBe("succeeded");
  });

  it("an engine.close() after the idle close does not rename why add refuses", async () => {
    setup();
    const stream = await engine.open({ threadId: "s", idleTimeoutMs: 10 });
    stream.add(call("a"));
    await until(() => control.started.includes("a"));
    timers.advance(10);
    const closing = engine.close();
    expect(thrownError(() => stream.add(call("late"))).data).toMatchObject({ stoppedBy: "idle" });
    await closing;
  });

  it("without the option a stream waits for close() however long it is idle", async () => {
    setup();
    const stream = await engine.open({ threadId: "s" });
    expect(timers.due.size).toBe(0);
    stream.add(call("a"));
    timers.advance(2 ** 31);
    expect(stream.add(call("b")).ok).toBe(true);
    await until(() => control.started.length === 2);
    control.finish("a");
    control.finish("b");
    expect((await stream.close()).status).toBe("succeeded");
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, "1000", null])(
    "idleTimeoutMs %s is USAGE before anything is locked or recorded",
    async (idleTimeoutMs) => {
      setup();
      const refusal = await engine.open({ threadId: "s", idleTimeoutMs } as never).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toMatchObject({
        code: "USAGE",
        message: expect.stringContaining("idleTimeoutMs must be a number of ms from 1 to 2147483647"),
      });
      expect(await engine.runs.list({ threadId: "s" })).toEqual([]);
      expect(timers.due.size).toBe(0);
    },
  );
});
