import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { Controller } from "./__fixtures__/controlled-tools.js";
import { until } from "./__fixtures__/deferred.js";
import { storeKinds } from "./__fixtures__/stores.js";
import {
  createEngine,
  createMemoryStore,
  DEFAULT_LIMITS,
  defineTool,
  type Engine,
  type RunEvent,
  type StateStore,
} from "./index.js";

const call = (id: string, extra: Record<string, unknown> = {}) => ({
  _tool: "wait",
  _id: id,
  key: id,
  ...extra,
});

describe.each(storeKinds())("execution on the $name store", (kind) => {
  let engine: Engine;
  let control: Controller;
  const setup = (options: { concurrency?: number; toolConcurrency?: number; failFast?: boolean } = {}) => {
    control = new Controller();
    engine = createEngine({
      tools: [
        control.tool(
          "wait",
          options.toolConcurrency === undefined ? {} : { concurrency: options.toolConcurrency },
        ),
        control.tool("other"),
      ],
      store: kind.open(),
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...(options.failFast === undefined ? {} : { failFast: options.failFast }),
    });
    return engine;
  };
  afterEach(async () => {
    vi.useRealTimers();
    await engine.close();
    kind.cleanup();
  });

  it("starts two independent calls before either finishes", async () => {
    const running = setup().run([
      call("a", { _outputPath: "†state.a" }),
      call("b", { _outputPath: "†state.b" }),
    ]);
    await until(() => control.started.length === 2);
    expect(control.inFlight).toBe(2);
    control.finish("b");
    control.finish("a");
    expect((await running).state).toEqual({ a: "a", b: "b" });
  });

  it("a fast branch's successor does not wait for a slow unrelated sibling", async () => {
    const running = setup().run([
      call("slow", { _outputPath: "†state.slow" }),
      call("fast", { _outputPath: "†state.fast" }),
      call("next", { value: "†state.fast", _outputPath: "†state.next" }),
    ]);
    await until(() => control.started.length === 2);
    control.finish("fast");
    await until(() => control.started.includes("next"));
    expect(control.pending.has("slow")).toBe(true);
    control.finish("next");
    control.finish("slow");
    expect((await running).status).toBe("succeeded");
  });

  it("push fan-in from five parallel calls lands in plan order regardless of completion order", async () => {
    const keys = ["p0", "p1", "p2", "p3", "p4"];
    const running = setup().run([
      ...keys.map((key) => call(key, { _outputPath: "†state.items", _outputMethod: "push" })),
      { _tool: "other", _id: "reader", key: "reader", value: "†state.items", _outputPath: "†state.seen" },
    ]);
    await until(() => control.started.length === 5);
    for (const key of ["p3", "p1", "p4", "p0", "p2"]) control.finish(key);
    await until(() => control.started.includes("reader"));
    control.finish("reader", "ok");
    const result = await running;
    expect(result.state.items).toEqual(keys);
  });

  it("never exceeds the global concurrency limit", async () => {
    const ids = ["c0", "c1", "c2", "c3", "c4", "c5"];
    const running = setup({ concurrency: 2 }).run(ids.map((id) => call(id, { _outputPath: `†state.${id}` })));
    for (let done = 0; done < ids.length; done++) {
      await until(
        () => control.started.length > done && control.pending.has(control.started[done] as string),
      );
      expect(control.inFlight).toBeLessThanOrEqual(2);
      control.finish(control.started[done] as string);
    }
    await running;
    expect(control.maxInFlight).toBe(2);
  });

  it("never exceeds a tool's own concurrency", async () => {
    const ids = ["t0", "t1", "t2", "t3"];
    const running = setup({ toolConcurrency: 1 }).run([
      ...ids.map((id) => call(id, { _outputPath: `†state.${id}` })),
      { _tool: "other", _id: "o", key: "o", _outputPath: "†state.o" },
    ]);
    await until(() => control.started.includes("o") && control.started.length === 2);
    control.finish("o");
    for (let done = 0; done < ids.length; done++) {
      await until(() => control.started.filter((key) => key.startsWith("t")).length > done);
      control.finish(control.started.filter((key) => key.startsWith("t"))[done] as string);
    }
    await running;
    expect(control.perTool.get("wait")?.max).toBe(1);
  });

  it("critical path first: with one slot, the call with the longer remaining path starts first", async () => {
    const running = setup({ concurrency: 1 }).run([
      call("blocker", { _outputPath: "†state.blocker" }),
      call("short", { _outputPath: "†state.short" }),
      call("long", { _outputPath: "†state.long" }),
      call("long2", { value: "†state.long", _outputPath: "†state.long2" }),
      call("long3", { value: "†state.long2", _outputPath: "†state.long3" }),
    ]);
    await until(() => control.started.length === 1);
    const next = (): Promise<void> => until(() => control.pending.has(control.started.at(-1) as string));
    for (let i = 0; i < 5; i++) {
      await next();
      control.finish(control.started.at(-1) as string);
      if (i < 4) await until(() => control.started.length === i + 2);
    }
    await running;
    expect(control.started.indexOf("long")).toBeLessThan(control.started.indexOf("short"));
  });

  it("failFast aborts in-flight calls and cancels the rest", async () => {
    const running = setup({ failFast: true }).run([
      call("x", { _outputPath: "†state.x" }),
      call("y", { _outputPath: "†state.y" }),
      call("z", { value: "†state.y", _outputPath: "†state.z" }),
    ]);
    await until(() => control.started.length === 2);
    control.fail("x", new Error("boom"));
    const result = await running;
    expect(result.status).toBe("failed");
    expect(result.calls.x?.status).toBe("failed");
    expect(result.calls.y?.status).toBe("cancelled");
    expect(result.calls.z?.status).toBe("cancelled");
    expect(control.signals.get("y")?.aborted).toBe(true);
  });

  it("a run aborted through its signal ends cancelled", async () => {
    const abort = new AbortController();
    const running = setup().run(
      [call("x", { _outputPath: "†state.x" }), call("y", { value: "†state.x", _outputPath: "†state.y" })],
      {
        signal: abort.signal,
      },
    );
    await until(() => control.started.length === 1);
    abort.abort();
    const result = await running;
    expect(result.status).toBe("cancelled");
    expect(result.calls.x).toMatchObject({ status: "cancelled", reason: "run cancelled" });
    expect(result.calls.y).toMatchObject({ status: "cancelled", reason: "run cancelled" });
  });

  it("cancelled calls give the caller's own abort reason", async () => {
    const plan = [
      call("x", { _outputPath: "†state.x" }),
      call("y", { value: "†state.x", _outputPath: "†state.y" }),
    ];
    const abort = new AbortController();
    const running = setup().run(plan, { signal: abort.signal });
    await until(() => control.started.length === 1);
    abort.abort("user pressed stop");
    const stopped = await running;
    expect(stopped.calls.x?.reason).toBe("run cancelled: user pressed stop");
    expect(stopped.calls.y?.reason).toBe("run cancelled: user pressed stop");
    const reasons = [
      [new Error("shutting down"), "run cancelled: shutting down"],
      [new DOMException("late", "TimeoutError"), "run cancelled: the run's signal timed out"],
      [new DOMException("This operation was aborted", "AbortError"), "run cancelled"],
      [`${"x".repeat(199)}😀`, `run cancelled: ${"x".repeat(199)}…`],
    ] as const;
    for (const [reason, expected] of reasons) {
      const result = await engine.run(plan, { threadId: "other", signal: AbortSignal.abort(reason) });
      expect(result.calls.x?.reason).toBe(expected);
    }
  });

  it("an observer that throws does not break the run and is reported", async () => {
    const seen: RunEvent[] = [];
    const running = setup().run([call("x", { _outputPath: "†state.x" })], {
      onEvent: (event) => {
        seen.push(event);
        if (event.type === "call-start") throw new Error("observer bug");
      },
    });
    await until(() => control.started.length === 1);
    control.finish("x");
    expect((await running).status).toBe("succeeded");
    expect(seen.map((event) => event.type)).toEqual([
      "run-start",
      "call-ready",
      "call-start",
      "state-write",
      "call-end",
      "run-end",
    ]);
    const reports: RunEvent[] = [];
    const twice = createEngine({
      tools: [defineTool({ name: "ok", run: () => 1 })],
      onEvent: (event) => event.type === "observer-error" && reports.push(event),
    });
    const result = await twice.run([{ _tool: "ok", _id: "k", _outputPath: "†state.k" }], {
      onEvent: () => {
        throw new Error("observer bug");
      },
    });
    expect(result.status).toBe("succeeded");
    expect(reports.length).toBeGreaterThan(0);
  });
});

describe("failures and statuses", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a timeout aborts the tool's signal and fails the call with TIMEOUT", async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const slow = defineTool({
      name: "slow",
      timeoutMs: 1000,
      run: (_args: unknown, ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      },
    });
    const engine = createEngine({ tools: [slow] });
    const running = engine.run([{ _tool: "slow", _id: "s", _outputPath: "†state.s" }]);
    await until(() => signal !== undefined);
    await vi.advanceTimersByTimeAsync(1000);
    const result = await running;
    expect(signal?.aborted).toBe(true);
    expect(result.calls.s).toMatchObject({ status: "failed", error: { code: "TIMEOUT" } });
  });

  it("retries count attempts, with backoff delays on fake timers", async () => {
    vi.useFakeTimers();
    let attempts = 0;
    const flaky = defineTool({
      name: "flaky",
      retry: { attempts: 3, backoffMs: 100, factor: 2 },
      run: () => {
        attempts++;
        if (attempts < 3) throw new Error("flaky");
        return "ok";
      },
    });
    const retries: number[] = [];
    const engine = createEngine({
      tools: [flaky],
      onEvent: (e) => e.type === "call-retry" && retries.push(e.delayMs),
    });
    const running = engine.run([{ _tool: "flaky", _id: "f", _outputPath: "†state.f" }]);
    await until(() => attempts === 1);
    await vi.advanceTimersByTimeAsync(100);
    await vi.advanceTimersByTimeAsync(200);
    const result = await running;
    expect(result.calls.f).toMatchObject({ status: "succeeded", attempts: 3 });
    expect(retries).toEqual([100, 200]);
  });

  it("OUTPUT_NOT_JSON, deferred, rejected and BRANCH_INVALID statuses", async () => {
    const tools = [
      defineTool({ name: "bad", run: () => () => 1 }),
      defineTool({ name: "latent", output: { type: "string" } }),
      defineTool({ name: "ok", run: () => "ok" }),
      defineTool({ name: "brancher", run: (_a: unknown, ctx) => ctx.branch(5, 1) }),
    ];
    const engine = createEngine({
      tools,
      confirm: (request) =>
        request.callId === "nope" ? { action: "reject", reason: "not today" } : { action: "approve" },
    });
    const result = await engine.run([
      { _tool: "bad", _id: "bad", _outputPath: "†state.bad" },
      { _tool: "latent", _id: "lat", _outputPath: "†state.lat" },
      { _tool: "latent", _id: "given", _output: "v", _outputPath: "†state.given" },
      { _tool: "ok", _id: "nope", _outputPath: "†state.nope" },
      { _tool: "ok", _id: "after", value: "†state.nope", _outputPath: "†state.after" },
      { _tool: "brancher", _id: "br", _outputPath: "†state.x || †state.y" },
    ]);
    expect(result.calls.bad).toMatchObject({ status: "failed", error: { code: "OUTPUT_NOT_JSON" } });
    expect(result.calls.lat?.status).toBe("deferred");
    expect(result.calls.given?.status).toBe("succeeded");
    expect(result.calls.nope).toMatchObject({ status: "rejected", reason: "not today" });
    expect(result.calls.after?.status).toBe("blocked");
    expect(result.calls.br).toMatchObject({ status: "failed", error: { code: "BRANCH_INVALID" } });
    expect(result.state).toEqual({ given: "v" });
  });

  it("confirm modify re-validates the parameters", async () => {
    const echo = defineTool({
      name: "echo",
      input: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      run: (args: unknown) => (args as { n: number }).n,
    });
    const engine = createEngine({
      tools: [echo],
      confirm: (request) => ({ action: "modify", params: { n: request.callId === "good" ? 7 : "seven" } }),
    });
    const result = await engine.run([
      { _tool: "echo", _id: "good", n: 1, _outputPath: "†state.good" },
      { _tool: "echo", _id: "bad", n: 1, _outputPath: "†state.bad" },
    ]);
    expect(result.state).toEqual({ good: 7 });
    expect(result.calls.bad).toMatchObject({ status: "failed", error: { code: "PARAM_INVALID" } });
  });

  it("a referenced value that breaks a format fails PARAM_INVALID worded as validate words it, not as a regex", async () => {
    const give = defineTool({ name: "give", run: () => "not an address" });
    const mail = defineTool({
      name: "mail",
      input: z.object({ to: z.email() }),
      run: ({ to }) => to,
    });
    const engine = createEngine({ tools: [give, mail] });
    const result = await engine.run([
      { _tool: "give", _id: "g", _outputPath: "†state.address" },
      { _tool: "mail", _id: "m", to: "†state.address", _outputPath: "†state.sent" },
    ]);
    // before: `parameter /to: must match pattern "^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)…"` (review s40 r2 #12)
    expect(result.calls.m).toMatchObject({
      status: "failed",
      error: { code: "PARAM_INVALID", message: 'parameter /to: must be an email address (format "email")' },
    });
  });

  it("a maxValueBytes above the default is the store's limit too (an output over 64 MiB is stored)", async () => {
    const large = "x".repeat(DEFAULT_LIMITS.maxValueBytes + 1);
    const engine = createEngine({
      tools: [{ name: "large", run: () => large }],
      limits: { maxValueBytes: 2 * DEFAULT_LIMITS.maxValueBytes },
    });
    const result = await engine.run([{ _tool: "large", _id: "l", _outputPath: "†state.l" }]);
    expect(result.calls.l?.status).toBe("succeeded");
    expect((result.state.l as string).length).toBe(large.length);
  });

  it("a small maxValueBytes never loses a call's record: failures larger than the limit are recorded", async () => {
    const engine = createEngine({
      tools: [
        { name: "boom", run: () => Promise.reject(new Error("e".repeat(400))) },
        { name: "big", run: () => "x".repeat(300) },
      ],
      limits: { maxValueBytes: 200 },
    });
    const result = await engine.run([
      { _tool: "boom", _id: "b", _outputPath: "†state.b" },
      { _tool: "big", _id: "g", _outputPath: "†state.g" },
    ]);
    expect(result.calls.b?.error?.message).toHaveLength(400);
    expect(result.calls.g?.error?.code).toBe("OUTPUT_TOO_LARGE");
    const { calls } = await engine.runs.show(result.runId);
    expect(calls.map((call) => `${call.callId}:${call.status}`).sort()).toEqual(["b:failed", "g:failed"]);
  });

  it("a failed call's record the store refuses is kept cut (no parameters, short error), never lost", async () => {
    const store = createMemoryStore();
    const commitCall = store.commitCall.bind(store);
    const refusing: StateStore = Object.assign(Object.create(store) as StateStore, {
      commitCall: (commit: Parameters<StateStore["commitCall"]>[0]) =>
        commit.record.status === "failed" && commit.record.params !== undefined
          ? { ok: false, error: { code: "OUTPUT_WRITE_FAILED", message: "call record: too large" } }
          : commitCall(commit),
    });
    const engine = createEngine({
      tools: [
        { name: "boom", run: () => Promise.reject(Object.assign(new Error("down"), { code: "E_DOWN" })) },
      ],
      store: refusing,
    });
    const result = await engine.run([{ _tool: "boom", _id: "b", p: 1, _outputPath: "†state.b" }]);
    expect(result.calls.b).toMatchObject({ status: "failed", error: { code: "E_DOWN", message: "down" } });
    const { calls } = await engine.runs.show(result.runId);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      callId: "b",
      status: "failed",
      error: { name: "Error", code: "E_DOWN" },
    });
    expect(calls[0]?.params).toBeUndefined();
    expect(calls[0]?.error?.message).toBe("down (record cut by the store: call record: too large)");
  });

  it("confirm modify is held to the engine's maxValueBytes, like resolved parameters", async () => {
    let runs = 0;
    const echo = defineTool({
      name: "echo",
      input: { type: "object", properties: { s: { type: "string" } }, required: ["s"] },
      run: (args: unknown) => {
        runs++;
        return (args as { s: string }).s.length;
      },
    });
    const engine = createEngine({
      tools: [echo],
      limits: { maxValueBytes: 200 },
      confirm: (request) => ({
        action: "modify",
        params: { s: "x".repeat(request.callId === "small" ? 100 : 300) },
      }),
    });
    const result = await engine.run([
      { _tool: "echo", _id: "small", s: "a", _outputPath: "†state.small" },
      { _tool: "echo", _id: "large", s: "a", _outputPath: "†state.large" },
    ]);
    expect(result.state).toEqual({ small: 100 });
    expect(result.calls.large).toMatchObject({ status: "failed", error: { code: "OUTPUT_TOO_LARGE" } });
    expect(runs).toBe(1);
  });
});
