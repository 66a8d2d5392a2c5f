import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { until } from "./__fixtures__/deferred.js";
import { createEngine, defineTool, type RetryPolicy, type RunEvent, type RunResult } from "./index.js";

/** A tool that throws on its first `failures` attempts, recording each attempt's context. */
function flakyTool(failures: number, retry?: Partial<RetryPolicy>) {
  const attempts: { attempt: number; key: string; signal: AbortSignal }[] = [];
  const tool = defineTool({
    name: "flaky",
    ...(retry === undefined ? {} : { retry }),
    run: (_args: unknown, ctx) => {
      attempts.push({ attempt: ctx.attempt, key: ctx.idempotencyKey, signal: ctx.signal });
      if (attempts.length <= failures) throw Object.assign(new Error("flaky"), { code: "E_FLAKY" });
      return "ok";
    },
  });
  return { tool, attempts };
}

/** Runs `plan` and collects the retry delays from the events. */
function start(engine: ReturnType<typeof createEngine>, plan: unknown[]) {
  const delays: number[] = [];
  const running: Promise<RunResult> = engine.run(plan, {
    onEvent: (event: RunEvent) => event.type === "call-retry" && delays.push(event.delayMs),
  });
  return { running, delays };
}

describe("retries and timeouts (fake timers)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("backoff × factor, capped at maxDelayMs; nothing retries before its delay has passed", async () => {
    const { tool, attempts } = flakyTool(3, { attempts: 4, backoffMs: 100, factor: 3, maxDelayMs: 500 });
    const { running, delays } = start(createEngine({ tools: [tool] }), [
      { _tool: "flaky", _id: "f", _outputPath: "†state.f" },
    ]);
    await until(() => attempts.length === 1);
    for (const [delay, expected] of [
      [100, 2],
      [300, 3],
      [500, 4],
    ] as const) {
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(attempts).toHaveLength(expected - 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(attempts).toHaveLength(expected);
    }
    const result = await running;
    expect(delays).toEqual([100, 300, 500]);
    expect(result.calls.f).toMatchObject({ status: "succeeded", attempts: 4 });
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
    expect(new Set(attempts.map((a) => a.key))).toEqual(new Set(["default:f"]));
  });

  it("jitter draws each delay in [0, delay] from the engine's random source", async () => {
    const { tool } = flakyTool(3, { attempts: 4, backoffMs: 100, factor: 3, maxDelayMs: 500, jitter: true });
    const { running, delays } = start(createEngine({ tools: [tool], random: () => 0.5 }), [
      { _tool: "flaky", _id: "f", _outputPath: "†state.f" },
    ]);
    await vi.advanceTimersByTimeAsync(50 + 150 + 250);
    expect((await running).calls.f).toMatchObject({ status: "succeeded", attempts: 4 });
    expect(delays).toEqual([50, 150, 250]);
  });

  it("a call's _retry overrides the tool's policy; attempts are counted in the result and the call record", async () => {
    const { tool, attempts } = flakyTool(5);
    const engine = createEngine({ tools: [tool], generateId: () => "r1" });
    const { running, delays } = start(engine, [
      {
        _tool: "flaky",
        _id: "f",
        _retry: { attempts: 3, backoffMs: 10, factor: 1 },
        _outputPath: "†state.f",
      },
    ]);
    await vi.advanceTimersByTimeAsync(20);
    const result = await running;
    expect(attempts).toHaveLength(3);
    expect(delays).toEqual([10, 10]);
    expect(result.calls.f).toMatchObject({ status: "failed", attempts: 3, error: { code: "E_FLAKY" } });
    const details = await engine.runs.show("r1");
    expect(details.calls.find((record) => record.callId === "f")).toMatchObject({
      status: "failed",
      attempts: 3,
    });
  });

  it("only thrown errors are retried: branch results, OUTPUT_INVALID and OUTPUT_NOT_JSON are final", async () => {
    const counts: Record<string, number> = {};
    const retry = { attempts: 3, backoffMs: 10 };
    const tool = (name: string, run: (ctx: { branch: (k: number, v: unknown) => unknown }) => unknown) =>
      defineTool({
        name,
        retry,
        output: { type: "number" },
        run: (_args: unknown, ctx) => {
          counts[name] = (counts[name] ?? 0) + 1;
          return run(ctx);
        },
      });
    const engine = createEngine({
      tools: [
        tool("branches", (ctx) => ctx.branch(1, "handled")),
        tool("invalid", () => "not a number"),
        tool("notJson", () => () => 1),
        tool("throws", () => {
          throw new Error("boom");
        }),
      ],
    });
    const running = engine.run([
      { _tool: "branches", _id: "b", _outputPath: "†state.ok || †state.other" },
      { _tool: "invalid", _id: "i", _outputPath: "†state.i" },
      { _tool: "notJson", _id: "n", _outputPath: "†state.n" },
      { _tool: "throws", _id: "t", _outputPath: "†state.t" },
    ]);
    await vi.advanceTimersByTimeAsync(10 + 20);
    const result = await running;
    expect(result.calls.b).toMatchObject({ status: "succeeded", branch: 1, attempts: 1 });
    expect(result.calls.i).toMatchObject({
      status: "failed",
      attempts: 1,
      error: { code: "OUTPUT_INVALID" },
    });
    expect(result.calls.n).toMatchObject({
      status: "failed",
      attempts: 1,
      error: { code: "OUTPUT_NOT_JSON" },
    });
    expect(result.calls.t).toMatchObject({ status: "failed", attempts: 3 });
    expect(counts).toEqual({ branches: 1, invalid: 1, notJson: 1, throws: 3 });
  });

  it("a call's _timeoutMs aborts each attempt's signal; timeouts are retried, then routed to the failure branch", async () => {
    const signals: AbortSignal[] = [];
    const hang = defineTool({
      name: "hang",
      retry: { attempts: 2, backoffMs: 5 },
      run: (_args: unknown, ctx) => {
        signals.push(ctx.signal);
        return new Promise(() => {});
      },
    });
    const running = createEngine({ tools: [hang] }).run([
      { _tool: "hang", _id: "h", _timeoutMs: 50, _outputPath: "†state.ok || †state.failed" },
    ]);
    await until(() => signals.length === 1);
    await vi.advanceTimersByTimeAsync(49);
    expect(signals[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signals[0]?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(5);
    expect(signals).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(50);
    const result = await running;
    expect(signals[1]?.aborted).toBe(true);
    expect(result.calls.h).toMatchObject({
      status: "succeeded",
      branch: 1,
      attempts: 2,
      error: { code: "TIMEOUT" },
    });
    expect(result.state.failed).toMatchObject({ code: "TIMEOUT" });
  });

  it("a retrying call keeps its slot during the backoff delay (decision)", async () => {
    const { tool, attempts } = flakyTool(1, { attempts: 2, backoffMs: 100 });
    const started: string[] = [];
    const other = defineTool({
      name: "other",
      run: () => {
        started.push("other");
        return 1;
      },
    });
    const running = createEngine({ tools: [tool, other], concurrency: 1 }).run([
      { _tool: "flaky", _id: "f", _outputPath: "†state.f" },
      { _tool: "other", _id: "o", _outputPath: "†state.o" },
    ]);
    await until(() => attempts.length === 1);
    await vi.advanceTimersByTimeAsync(99);
    expect(started).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const result = await running;
    expect(started).toEqual(["other"]);
    expect(result.status).toBe("succeeded");
  });
});

describe("injected timers and clock", () => {
  it("a tool that holds the event loop past its timeoutMs fails TIMEOUT when its result arrives (SPEC §7)", async () => {
    let clock = 1_000;
    let signal: AbortSignal | undefined;
    const timers = { setTimeout: () => 1, clearTimeout: () => {} }; // a timer that cannot fire while the loop is held
    const spin = defineTool({
      name: "spin",
      timeoutMs: 20,
      run: async (_args: unknown, ctx) => {
        signal = ctx.signal;
        await null;
        clock += 150; // what a 150 ms synchronous loop does to the clock
        return "spun";
      },
    });
    const engine = createEngine({ tools: [spin], timers, now: () => clock });
    const result = await engine.run([{ _tool: "spin", _id: "s", _outputPath: "†state.x" }]);
    expect(result.calls.s).toMatchObject({ status: "failed", error: { code: "TIMEOUT" } });
    expect(result.state).toEqual({});
    expect(signal?.aborted).toBe(true);
  });

  it("timeouts and retry delays use the engine's timers; durations come from its clock", async () => {
    const scheduled: { callback: () => void; ms: number; cleared: boolean }[] = [];
    const timers = {
      setTimeout: (callback: () => void, ms: number) => {
        scheduled.push({ callback, ms, cleared: false });
        return scheduled.length - 1;
      },
      clearTimeout: (handle: unknown) => {
        const timer = scheduled[handle as number];
        if (timer !== undefined) timer.cleared = true;
      },
    };
    let clock = 1_000;
    let attempts = 0;
    const hang = defineTool({
      name: "hang",
      timeoutMs: 30,
      retry: { attempts: 2, backoffMs: 7 },
      run: () => {
        attempts++;
        return new Promise(() => {});
      },
    });
    const running = createEngine({ tools: [hang], timers, now: () => clock }).run([
      { _tool: "hang", _id: "h", _outputPath: "†state.h" },
    ]);
    const fire = async (ms: number) => {
      await until(() => scheduled.some((timer) => timer.ms === ms && !timer.cleared));
      const timer = scheduled.find((t) => t.ms === ms && !t.cleared);
      if (timer === undefined) throw new Error(`no ${ms} ms timer`);
      timer.cleared = true;
      clock += ms; // time passes as a timer fires (a tool that moved the clock past 30 ms itself would be late)
      timer.callback();
    };
    await fire(30);
    await fire(7);
    await until(() => attempts === 2);
    await fire(30);
    const result = await running;
    expect(result.calls.h).toMatchObject({ status: "failed", attempts: 2, error: { code: "TIMEOUT" } });
    expect(result.calls.h?.durationMs).toBe(67);
    expect(scheduled.map((timer) => timer.ms)).toEqual([30, 7, 30]);
  });
});
