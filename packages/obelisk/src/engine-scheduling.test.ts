import { asThreadId } from "@obelisk/core";
import { afterEach, describe, expect, it } from "vitest";
import { Controller } from "./__fixtures__/controlled-tools.js";
import { until } from "./__fixtures__/deferred.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { branch, createEngine, type Engine, type RunResult } from "./index.js";

/** A call of the controlled tool `tool` whose key is its id. */
const call = (id: string, extra: Record<string, unknown> = {}, tool = "wait") => ({
  _tool: tool,
  _id: id,
  key: id,
  ...extra,
});

/** Lets pending callbacks run without timers (for asserting that something did NOT start). */
async function settle(turns = 200): Promise<void> {
  for (let i = 0; i < turns; i++) await Promise.resolve();
}

describe.each(storeKinds())("scheduling on the $name store", (kind) => {
  let engine: Engine;
  let control: Controller;
  const setup = (
    options: { concurrency?: number; waitConcurrency?: number; generateId?: () => string } = {},
  ): Engine => {
    control = new Controller();
    engine = createEngine({
      tools: [
        control.tool(
          "wait",
          options.waitConcurrency === undefined ? {} : { concurrency: options.waitConcurrency },
        ),
        control.tool("other"),
      ],
      store: kind.open(),
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...(options.generateId === undefined ? {} : { generateId: options.generateId }),
    });
    return engine;
  };
  afterEach(async () => {
    await engine.close();
    kind.cleanup();
  });

  /** Finishes running calls one at a time (oldest first) until the run settles; checks limits at every step. */
  async function drain(running: Promise<RunResult>, check: () => void): Promise<RunResult> {
    let done = false;
    void running.then(
      () => {
        done = true;
      },
      () => {
        done = true;
      },
    );
    const finished = new Set<string>();
    for (;;) {
      await until(() => done || control.started.some((key) => !finished.has(key)));
      if (done) return running;
      check();
      const key = control.started.find((k) => !finished.has(k)) as string;
      finished.add(key);
      control.finish(key);
    }
  }

  it("is unbounded by default: forty independent calls are all in flight at once", async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `c${i}`);
    const running = setup().run(ids.map((id) => call(id, { _outputPath: `†state.${id}` })));
    await until(() => control.started.length === 40);
    expect(control.inFlight).toBe(40);
    for (const id of ids) control.finish(id);
    const result = await running;
    expect(result.status).toBe("succeeded");
    expect(Object.keys(result.state)).toHaveLength(40);
  });

  it("global and per-tool limits together are never exceeded, and both are reached", async () => {
    const waits = Array.from({ length: 6 }, (_, i) => call(`w${i}`, { _outputPath: `†state.w${i}` }));
    const others = Array.from({ length: 5 }, (_, i) =>
      call(`o${i}`, { _outputPath: `†state.o${i}` }, "other"),
    );
    const running = setup({ concurrency: 3, waitConcurrency: 2 }).run([...waits, ...others]);
    const result = await drain(running, () => {
      expect(control.inFlight).toBeLessThanOrEqual(3);
      expect(control.perTool.get("wait")?.inFlight ?? 0).toBeLessThanOrEqual(2);
    });
    expect(result.status).toBe("succeeded");
    expect(control.started).toHaveLength(11);
    expect(control.maxInFlight).toBe(3);
    expect(control.perTool.get("wait")?.max).toBe(2);
  });

  it.each([
    ["the engine's concurrency", { concurrency: 1 }],
    ["a tool's concurrency", { waitConcurrency: 1 }],
  ] as const)("%s holds across concurrent runs on different threads", async (_name, limits) => {
    setup(limits);
    const runs = ["t1", "t2", "t3"].map((threadId) =>
      engine.run([call(`x-${threadId}`, { _outputPath: "†state.x" })], { threadId }),
    );
    let done = 0;
    while (done < runs.length) {
      await until(() => control.inFlight === 1);
      await settle();
      expect(control.inFlight).toBe(1);
      control.finish(control.started[done] as string);
      done++;
    }
    const results = await Promise.all(runs);
    expect(results.map((result) => result.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect(control.maxInFlight).toBe(1);
  });

  it("critical path first also applies inside a tool's own queue", async () => {
    const running = setup({ waitConcurrency: 1 }).run([
      call("first", { _outputPath: "†state.first" }),
      call("short", { _outputPath: "†state.short" }),
      call("long", { _outputPath: "†state.long" }),
      call("long2", { value: "†state.long", _outputPath: "†state.long2" }, "other"),
      call("long3", { value: "†state.long2", _outputPath: "†state.long3" }, "other"),
    ]);
    const result = await drain(running, () => {
      expect(control.perTool.get("wait")?.inFlight ?? 0).toBeLessThanOrEqual(1);
    });
    expect(result.status).toBe("succeeded");
    const waits = control.started.filter((key) => ["first", "short", "long"].includes(key));
    // Plan order would be first, short, long: the longer remaining path goes first once a slot is scarce,
    // the first slot included (the calls ready in one turn are ranked before any starts, M6).
    expect(waits).toEqual(["long", "first", "short"]);
  });

  it("a fallback waits for its first operand's writer even when the second operand is written first", async () => {
    const running = setup().run([
      call("a", { _outputPath: "†state.a" }),
      call("b", { _outputPath: "†state.b" }),
      call("r", { value: "†state.a || †state.b", _outputPath: "†state.r" }, "other"),
    ]);
    await until(() => control.started.length === 2);
    control.finish("b", "B");
    await settle();
    expect(control.started).not.toContain("r");
    control.finish("a", "A");
    await until(() => control.started.includes("r"));
    control.finish("r", "done");
    const result = await running;
    expect(result.calls.r?.status).toBe("succeeded");
    expect(result.state).toMatchObject({ a: "A", b: "B", r: "done" });
  });

  it("a fallback moves to its second operand when the first one's writer takes another alternative", async () => {
    const seen: unknown[] = [];
    const running = setup().run(
      [
        call("a", { _outputPath: "†state.a || †state.aFailed" }),
        call("b", { _outputPath: "†state.b" }),
        call("r", { value: "†state.a || †state.b", _outputPath: "†state.r" }, "other"),
      ],
      { onEvent: (event) => event.type === "call-start" && event.callId === "r" && seen.push(event.params) },
    );
    await until(() => control.started.length === 2);
    control.finish("a", branch(1, "no"));
    await settle();
    expect(control.started).not.toContain("r");
    control.finish("b", "B");
    await until(() => control.started.includes("r"));
    control.finish("r");
    const result = await running;
    expect(seen).toEqual([{ key: "r", value: "B" }]);
    expect(result.state).toMatchObject({ aFailed: "no", b: "B", r: "r" });
  });

  it("the reader of a fallback gets the first operand's value, whatever the completion order", async () => {
    const seen: unknown[] = [];
    const running = setup().run(
      [
        call("a", { _outputPath: "†state.a" }),
        call("b", { _outputPath: "†state.b" }),
        call("r", { value: "†state.a || †state.b", _outputPath: "†state.r" }, "other"),
      ],
      { onEvent: (event) => event.type === "call-start" && event.callId === "r" && seen.push(event.params) },
    );
    await until(() => control.started.length === 2);
    control.finish("b", "B");
    control.finish("a", "A");
    await until(() => control.started.includes("r"));
    control.finish("r");
    await running;
    expect(seen).toEqual([{ key: "r", value: "A" }]);
  });

  it("a completion is committed to the store before its dependents start", async () => {
    const storedWhenStarted: unknown[] = [];
    const running = setup().run([
      call("up", { _outputPath: "†state.up" }),
      call("down", { value: "†state.up", _outputPath: "†state.down" }, "other"),
    ]);
    await until(() => control.started.length === 1);
    control.finish("up", { n: 1 });
    await until(() => control.started.includes("down"));
    storedWhenStarted.push(await engine.store.readState(asThreadId("default")));
    control.finish("down");
    await running;
    expect(storedWhenStarted).toEqual([{ up: { n: 1 } }]);
  });

  it("cancellation aborts in-flight signals, ignores late results and records the run as cancelled", async () => {
    const abort = new AbortController();
    const running = setup({ generateId: () => "run-1" }).run(
      [
        call("x", { _outputPath: "†state.x" }),
        call("y", { _outputPath: "†state.y" }),
        call("z", { value: "†state.x", _outputPath: "†state.z" }),
      ],
      { signal: abort.signal },
    );
    await until(() => control.started.length === 2);
    control.finish("y");
    await until(() => control.inFlight === 1);
    abort.abort();
    const result = await running;
    control.finish("x", "late");
    await settle();
    expect(control.signals.get("x")?.aborted).toBe(true);
    expect(result.status).toBe("cancelled");
    expect(result.calls.y?.status).toBe("succeeded");
    expect(result.calls.x?.status).toBe("cancelled");
    expect(result.calls.z?.status).toBe("cancelled");
    expect(control.started).not.toContain("z");
    expect(result.state).toEqual({ y: "y" });
    expect(await engine.get("default", "†state.x")).toMatchObject({ found: false });
    expect((await engine.runs.show("run-1")).run.status).toBe("cancelled");
  });

  // Found by the issue 5 audit: the failed call's slot used to be released before failFast aborted the
  // run, so a queued call started. SPEC §7: nothing starts after the first unhandled failure.
  it("failFast: no queued call starts after the first failure when slots are scarce", async () => {
    const abortingEngine = setup({ concurrency: 1 });
    const running = abortingEngine.run(
      [call("x", { _outputPath: "†state.x" }), call("y", { _outputPath: "†state.y" })],
      { failFast: true },
    );
    await until(() => control.started.length === 1);
    control.fail("x", new Error("boom"));
    const result = await running;
    expect(result.status).toBe("failed");
    expect(result.calls.x?.status).toBe("failed");
    expect(result.calls.y?.status).toBe("cancelled");
    expect(control.started).toEqual(["x"]);
  });

  it("a signal aborted before the run starts cancels every call without invoking a tool", async () => {
    const abort = new AbortController();
    abort.abort();
    const result = await setup().run([call("x", { _outputPath: "†state.x" })], { signal: abort.signal });
    expect(result.status).toBe("cancelled");
    expect(result.calls.x?.status).toBe("cancelled");
    expect(control.started).toEqual([]);
  });
});
