import { MAX_TIMER_MS } from "@obelisk/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flush } from "./__fixtures__/deferred.js";
import { invokeRequest } from "./__fixtures__/invoke-request.js";
import { type InvokeOutcome, invokeTool } from "./invoke-tool.js";

const request = invokeRequest;

/** A tool that answers after one minute of (fake) time. */
const oneMinute = () => new Promise((resolve) => setTimeout(() => resolve("done"), 60_000));

describe("timeouts and delays longer than a timer can hold (bug B11)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([2 ** 31, 2 ** 32, 1e300, Infinity])("a timeout of %s ms sets no timer", async (timeoutMs) => {
    const pending = invokeTool(request(oneMinute, { timeoutMs })) as Promise<InvokeOutcome>;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await pending).toEqual({ kind: "returned", value: "done", attempts: 1 });
  });

  it("a timeout of exactly 2^31 − 1 ms still times out, at that moment", async () => {
    const pending = invokeTool(request(() => new Promise(() => {}), { timeoutMs: MAX_TIMER_MS }));
    let outcome: InvokeOutcome | undefined;
    void (pending as Promise<InvokeOutcome>).then((value) => {
      outcome = value;
    });
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS - 1);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toMatchObject({ kind: "threw", error: { code: "TIMEOUT" } });
  });

  it("a retry delay over 2^31 − 1 ms waits that long, not 1 ms", async () => {
    let calls = 0;
    const policy = { attempts: 2, backoffMs: 1e300, factor: 1, maxDelayMs: 1e300, jitter: false };
    const pending = invokeTool(
      request(
        () => {
          calls++;
          throw new Error("flaky");
        },
        { policy },
      ),
    ) as Promise<InvokeOutcome>;
    await flush();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    expect(calls).toBe(2);
    expect(await pending).toMatchObject({ kind: "threw", attempts: 2 });
  });
});
