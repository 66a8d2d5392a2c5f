import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flush } from "./__fixtures__/deferred.js";
import { invokeRequest } from "./__fixtures__/invoke-request.js";
import { type InvokeOutcome, invokeTool } from "./invoke-tool.js";
import { DEFAULT_RETRY, retryDelay } from "./retry-delay.js";

const request = invokeRequest;

describe("invokeTool", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("completes synchronously for synchronous tools", () => {
    expect(invokeTool(request(() => 42))).toEqual({ kind: "returned", value: 42, attempts: 1 });
  });

  it("passes the idempotency key and attempt number", () => {
    const seen: unknown[] = [];
    invokeTool(request((_args, ctx) => seen.push(ctx.idempotencyKey, ctx.attempt)));
    expect(seen).toEqual(["t:c", 1]);
  });

  it("aborts the attempt's signal on timeout and fails with TIMEOUT", async () => {
    let signal: AbortSignal | undefined;
    const pending = invokeTool(
      request(
        (_args, ctx) => {
          signal = ctx.signal;
          return new Promise(() => {});
        },
        { timeoutMs: 50 },
      ),
    ) as Promise<InvokeOutcome>;
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(50);
    expect(signal?.aborted).toBe(true);
    expect(await pending).toMatchObject({ kind: "threw", error: { code: "TIMEOUT" }, attempts: 1 });
  });

  it("retries thrown errors with backoff delays on the injected timers", async () => {
    let calls = 0;
    const policy = { attempts: 3, backoffMs: 100, factor: 2, maxDelayMs: 150, jitter: false };
    const req = request(
      () => {
        calls++;
        if (calls < 3) throw Object.assign(new Error("flaky"), { code: "FLAKY" });
        return "ok";
      },
      { policy },
    );
    const pending = invokeTool(req) as Promise<InvokeOutcome>;
    await flush();
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(150);
    expect(await pending).toEqual({ kind: "returned", value: "ok", attempts: 3 });
    expect(req.retries).toEqual([100, 150]);
  });

  it("gives up after the last attempt with the tool's error code", async () => {
    const policy = { ...DEFAULT_RETRY, attempts: 2, backoffMs: 10 };
    const pending = invokeTool(
      request(
        () => {
          throw Object.assign(new Error("nope"), { code: "E_NOPE" });
        },
        { policy },
      ),
    );
    await vi.advanceTimersByTimeAsync(10);
    expect(await pending).toMatchObject({
      kind: "threw",
      attempts: 2,
      error: { code: "E_NOPE", message: "nope" },
    });
  });

  it("ends cancelled when the run is aborted in flight", async () => {
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    const pending = invokeTool(
      request(
        (_args, ctx) => {
          signal = ctx.signal;
          return new Promise(() => {});
        },
        { signal: controller.signal },
      ),
    );
    controller.abort();
    expect(await pending).toEqual({ kind: "cancelled", attempts: 1 });
    expect(signal?.aborted).toBe(true);
  });

  it("ends cancelled when the run is aborted while the tool's synchronous part runs, leaving no timer", async () => {
    const controller = new AbortController();
    const pending = invokeTool(
      request(
        () => {
          controller.abort();
          return new Promise(() => {});
        },
        { signal: controller.signal, timeoutMs: 60_000 },
      ),
    );
    expect(await pending).toEqual({ kind: "cancelled", attempts: 1 });
    // a timeout timer set after the abort would keep the process alive for a minute
    expect(vi.getTimerCount()).toBe(0);
  });

  it("takes the run's abort from the request's own flag when it has one (a runner's), not from its signal", () => {
    let ran = false;
    const live = new AbortController().signal;
    const outcome = invokeTool(
      request(
        () => {
          ran = true;
          return 1;
        },
        { signal: live, aborted: true },
      ),
    );
    expect(outcome).toEqual({ kind: "cancelled", attempts: 0 });
    expect(ran).toBe(false);
  });

  it("ends every in-flight attempt of a run once when it is aborted, in the order they started", async () => {
    const controller = new AbortController();
    const order: number[] = [];
    const pending = [1, 2, 3].map((n) =>
      (
        invokeTool(
          request(() => new Promise(() => {}), { signal: controller.signal }),
        ) as Promise<InvokeOutcome>
      ).then((outcome) => {
        order.push(n);
        return outcome;
      }),
    );
    // an attempt that ended before the abort is not touched by it
    expect(await invokeTool(request(() => Promise.resolve(7), { signal: controller.signal }))).toEqual({
      kind: "returned",
      value: 7,
      attempts: 1,
    });
    controller.abort();
    expect(await Promise.all(pending)).toEqual([1, 2, 3].map(() => ({ kind: "cancelled", attempts: 1 })));
    expect(order).toEqual([1, 2, 3]);
  });

  it("computes jittered delays from the injected random source", () => {
    const policy = { attempts: 5, backoffMs: 100, factor: 3, maxDelayMs: 1000, jitter: true };
    expect(retryDelay(policy, 1, () => 0.5)).toBe(50);
    expect(retryDelay(policy, 3, () => 0.5)).toBe(450);
    expect(retryDelay({ ...policy, jitter: false }, 4, () => 0)).toBe(1000);
  });
});
