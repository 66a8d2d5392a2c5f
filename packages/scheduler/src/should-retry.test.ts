import { createToolRegistry, type RetryAnswer, type ToolRegistry } from "@obelisk/compiler";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { invokeRequest } from "./__fixtures__/invoke-request.js";
import { runPlan, statusOf } from "./__fixtures__/run-plan.js";
import { EventHub } from "./event-hub.js";
import { type InvokeOutcome, invokeTool } from "./invoke-tool.js";
import { DEFAULT_RETRY } from "./retry-delay.js";
import type { Timers } from "./timers.js";

class HttpError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/** A tool that throws `errors` in turn, then returns "ok"; counts its attempts. */
function failing(...errors: unknown[]) {
  const tool = {
    attempts: 0,
    run: () => {
      const error = errors[tool.attempts++];
      if (error === undefined) return "ok";
      throw error;
    },
  };
  return tool;
}

describe("a tool's retry.shouldRetry decides which errors are tried again", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("an error it refuses fails the call at once, with the tool's error, no retry scheduled", () => {
    const seen: [unknown, number][] = [];
    const tool = failing(new HttpError(404));
    const shouldRetry = (error: unknown, attempt: number) => {
      seen.push([error, attempt]);
      return !(error instanceof HttpError && error.status < 500);
    };
    const req = invokeRequest(tool.run, { policy: { ...DEFAULT_RETRY, attempts: 4, shouldRetry } });
    expect(invokeTool(req)).toMatchObject({ kind: "threw", attempts: 1, error: { message: "HTTP 404" } });
    expect(tool.attempts).toBe(1);
    expect(req.retries).toEqual([]);
    expect(seen).toEqual([[expect.any(HttpError), 1]]);
  });

  it("an error it accepts is retried, and it is asked again after each failed attempt", async () => {
    const attemptsAsked: number[] = [];
    const tool = failing(new HttpError(503), new HttpError(503), new HttpError(400));
    const shouldRetry = (error: unknown, attempt: number) => {
      attemptsAsked.push(attempt);
      return (error as HttpError).status >= 500;
    };
    const req = invokeRequest(tool.run, {
      policy: { ...DEFAULT_RETRY, attempts: 5, backoffMs: 10, shouldRetry },
    });
    const pending = invokeTool(req) as Promise<InvokeOutcome>;
    await vi.advanceTimersByTimeAsync(10 + 20);
    expect(await pending).toMatchObject({ kind: "threw", attempts: 3, error: { message: "HTTP 400" } });
    expect(attemptsAsked).toEqual([1, 2, 3]);
    expect(tool.attempts).toBe(3);
  });

  it("a timeout is offered to it as an Error with code TIMEOUT", async () => {
    const seen: unknown[] = [];
    const req = invokeRequest(() => new Promise(() => {}), {
      timeoutMs: 50,
      policy: {
        ...DEFAULT_RETRY,
        attempts: 3,
        shouldRetry: (error) => {
          seen.push(error);
          return false;
        },
      },
    });
    const pending = invokeTool(req) as Promise<InvokeOutcome>;
    await vi.advanceTimersByTimeAsync(50);
    expect(await pending).toMatchObject({ kind: "threw", attempts: 1, error: { code: "TIMEOUT" } });
    expect(seen).toEqual([expect.objectContaining({ name: "TimeoutError", code: "TIMEOUT" })]);
  });

  it("one that throws counts as no: the call fails with the tool's own error", () => {
    const tool = failing(Object.assign(new Error("flaky"), { code: "E_FLAKY" }));
    const shouldRetry = () => {
      throw new Error("bug in the predicate");
    };
    const req = invokeRequest(tool.run, { policy: { ...DEFAULT_RETRY, attempts: 3, shouldRetry } });
    expect(invokeTool(req)).toMatchObject({ kind: "threw", attempts: 1, error: { code: "E_FLAKY" } });
  });

  it("only true retries: a truthy non-boolean answer does not", () => {
    const tool = failing(new Error("x"));
    const shouldRetry = (() => "yes") as unknown as () => boolean;
    const req = invokeRequest(tool.run, { policy: { ...DEFAULT_RETRY, attempts: 3, shouldRetry } });
    expect(invokeTool(req)).toMatchObject({ kind: "threw", attempts: 1 });
  });

  it("an async predicate is awaited: a promise of true retries, of false or a rejection does not", async () => {
    const asked: number[] = [];
    const tool = failing(new HttpError(503), new HttpError(503), new HttpError(404));
    const shouldRetry = async (error: unknown, attempt: number) => {
      asked.push(attempt);
      return (error as HttpError).status >= 500;
    };
    const req = invokeRequest(tool.run, {
      policy: { ...DEFAULT_RETRY, attempts: 5, backoffMs: 10, shouldRetry },
    });
    const pending = invokeTool(req) as Promise<InvokeOutcome>;
    await vi.advanceTimersByTimeAsync(10 + 20);
    expect(await pending).toMatchObject({ kind: "threw", attempts: 3, error: { message: "HTTP 404" } });
    expect(asked).toEqual([1, 2, 3]);
    const rejecting = invokeRequest(failing(new Error("x")).run, {
      policy: { ...DEFAULT_RETRY, attempts: 3, shouldRetry: () => Promise.reject(new Error("bug")) },
    });
    expect(await invokeTool(rejecting)).toMatchObject({ kind: "threw", attempts: 1 });
  });

  it("one still pending when the run is aborted counts as no: the call fails with the tool's error, and it gets the run's signal", async () => {
    const run = new AbortController();
    const given: AbortSignal[] = [];
    const req = invokeRequest(failing(new HttpError(503)).run, {
      signal: run.signal,
      policy: {
        ...DEFAULT_RETRY,
        attempts: 3,
        shouldRetry: (_error, _attempt, signal) => {
          given.push(signal);
          return new Promise<boolean>(() => {}); // a circuit-breaker service that never answers
        },
      },
    });
    const pending = invokeTool(req) as Promise<InvokeOutcome>;
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    run.abort();
    expect(await pending).toMatchObject({ kind: "threw", attempts: 1, error: { message: "HTTP 503" } });
    expect(given).toEqual([run.signal]);
    const aborted = new AbortController();
    const late = invokeRequest(failing(new HttpError(503)).run, {
      signal: aborted.signal,
      policy: {
        ...DEFAULT_RETRY,
        attempts: 3,
        shouldRetry: () => {
          aborted.abort(); // aborted while it was being asked
          return new Promise<boolean>(() => {});
        },
      },
    });
    expect(invokeTool(late)).toMatchObject({ kind: "threw", attempts: 1 });
  });

  it("it is not asked when no attempt is left", () => {
    let asked = 0;
    const req = invokeRequest(failing(new Error("x")).run, {
      policy: { ...DEFAULT_RETRY, shouldRetry: () => ++asked > 0 },
    });
    expect(invokeTool(req)).toMatchObject({ kind: "threw", attempts: 1 });
    expect(asked).toBe(0);
  });
});

describe("through a run: the tool's predicate reaches its calls", () => {
  async function runWith(plan: unknown): Promise<{ attempts: number; outcome: unknown }> {
    let attempts = 0;
    const registry = createToolRegistry([
      {
        name: "fetchPage",
        retry: { attempts: 3, backoffMs: 0, shouldRetry: (error: unknown) => !(error instanceof HttpError) },
        run: () => {
          attempts++;
          throw new HttpError(404);
        },
      },
    ]);
    const { result } = await runPlan(registry, plan);
    const [call] = result.calls;
    return { attempts, outcome: [call?.status, call?.error?.message] };
  }

  it("a refused error fails the call after one attempt", async () => {
    const plan = [{ _tool: "fetchPage", _outputPath: "†state.page" }];
    expect(await runWith(plan)).toEqual({ attempts: 1, outcome: ["failed", "HTTP 404"] });
  });

  it("it applies to the attempts a plan's _retry sets as well", async () => {
    const plan = [{ _tool: "fetchPage", _retry: { attempts: 5, backoffMs: 0 }, _outputPath: "†state.page" }];
    expect(await runWith(plan)).toEqual({ attempts: 1, outcome: ["failed", "HTTP 404"] });
  });
});

/** A server's refusal that says when to come back (`Retry-After`, in ms). */
class RateLimited extends Error {
  readonly status = 429;
  constructor(readonly retryAfterMs: number) {
    super(`HTTP 429, retry after ${retryAfterMs} ms`);
  }
}

/** Asks for the delay a RateLimited error carries; any other error after the policy's backoff. */
const honourRetryAfter = (error: unknown): RetryAnswer =>
  error instanceof RateLimited ? { retry: true, delayMs: error.retryAfterMs } : true;

describe("shouldRetry may answer the delay of its retry ({ retry: true, delayMs }: a server's Retry-After)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("the retry waits the delay asked for, as it is (no jitter, no backoff), and call-retry shows it", async () => {
    const tool = failing(new RateLimited(5_000));
    const req = invokeRequest(tool.run, {
      policy: { ...DEFAULT_RETRY, attempts: 3, backoffMs: 10, jitter: true, shouldRetry: honourRetryAfter },
    });
    const pending = invokeTool(req) as Promise<InvokeOutcome>;
    await vi.advanceTimersByTimeAsync(4_999);
    expect(tool.attempts).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toEqual({ kind: "returned", value: "ok", attempts: 2 });
    expect(req.retries).toEqual([5_000]);
  });

  it("true, and delayMs left out or undefined, keep the policy's backoff for that retry number", async () => {
    const answers: RetryAnswer[] = [
      true,
      { retry: true, delayMs: 1_000 },
      { retry: true },
      { retry: true, delayMs: undefined },
    ];
    const tool = failing(new Error("a"), new Error("b"), new Error("c"), new Error("d"));
    const req = invokeRequest(tool.run, {
      policy: {
        ...DEFAULT_RETRY,
        attempts: 5,
        backoffMs: 10,
        shouldRetry: (_e, attempt) => answers[attempt - 1] ?? false,
      },
    });
    const pending = invokeTool(req) as Promise<InvokeOutcome>;
    await vi.advanceTimersByTimeAsync(10 + 1_000 + 40 + 80);
    expect(await pending).toMatchObject({ kind: "returned", value: "ok", attempts: 5 });
    expect(req.retries).toEqual([10, 1_000, 40, 80]);
  });

  it("a delay above maxDelayMs is not waited: no retry, the call fails at once with the tool's error; maxDelayMs itself is waited", async () => {
    const refused = invokeRequest(failing(new RateLimited(600_000)).run, {
      policy: { ...DEFAULT_RETRY, attempts: 3, maxDelayMs: 30_000, shouldRetry: honourRetryAfter },
    });
    expect(invokeTool(refused)).toMatchObject({
      kind: "threw",
      attempts: 1,
      error: { message: "HTTP 429, retry after 600000 ms" },
    });
    expect(refused.retries).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    const atTheCap = invokeRequest(failing(new RateLimited(30_000)).run, {
      policy: { ...DEFAULT_RETRY, attempts: 3, maxDelayMs: 30_000, shouldRetry: honourRetryAfter },
    });
    const pending = invokeTool(atTheCap) as Promise<InvokeOutcome>;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await pending).toMatchObject({ kind: "returned", attempts: 2 });
    expect(atTheCap.retries).toEqual([30_000]);
  });

  it.each([
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "Infinity"],
    [-1, "-1"],
    ["5000", '"5000"'],
    [null, "null"],
  ])(
    "a delayMs of %s is refused: the call fails USAGE at once, naming the tool, the value and the attempt's error",
    async (delayMs, shown) => {
      const tool = failing(new RateLimited(1), new RateLimited(1));
      for (const shouldRetry of [() => ({ retry: true, delayMs }), async () => ({ retry: true, delayMs })]) {
        tool.attempts = 0;
        const req = invokeRequest(tool.run, {
          toolName: "fetchOrder",
          policy: { ...DEFAULT_RETRY, attempts: 3, shouldRetry: shouldRetry as () => RetryAnswer },
        });
        expect(await invokeTool(req)).toEqual({
          kind: "invalid",
          attempts: 1,
          error: {
            name: "ObeliskError",
            code: "USAGE",
            message: `tool "fetchOrder": retry.shouldRetry answered delayMs ${shown} after attempt 1: a delay must be a finite number of ms, 0 or more (leave it out for the policy's backoff); attempt 1 failed with: HTTP 429, retry after 1 ms`,
          },
        });
        expect(tool.attempts).toBe(1);
        expect(req.retries).toEqual([]);
      }
    },
  );

  it("after a retry that asked a delay: retry false with a bad delay is no (not an error), and so is an answer whose fields throw", async () => {
    const throwing = Object.defineProperty({ retry: true }, "delayMs", {
      get: () => {
        throw new Error("bug");
      },
    });
    for (const last of [{ retry: false, delayMs: Number.NaN }, throwing]) {
      const answers = [{ retry: true, delayMs: 500 }, last];
      const tool = failing(new Error("a"), new Error("b"), new Error("c"));
      const req = invokeRequest(tool.run, {
        policy: {
          ...DEFAULT_RETRY,
          attempts: 4,
          shouldRetry: (_e, attempt) => answers[attempt - 1] as RetryAnswer,
        },
      });
      const pending = invokeTool(req) as Promise<InvokeOutcome>;
      await vi.advanceTimersByTimeAsync(500);
      expect(await pending).toMatchObject({ kind: "threw", attempts: 2, error: { message: "b" } });
      expect(req.retries).toEqual([500]);
    }
  });

  it("the run's abort ends a long delay at once: the call is cancelled after its one attempt, no timer left", async () => {
    const run = new AbortController();
    const tool = failing(new RateLimited(20 * 60_000));
    const req = invokeRequest(tool.run, {
      signal: run.signal,
      policy: { ...DEFAULT_RETRY, attempts: 3, maxDelayMs: 3_600_000, shouldRetry: honourRetryAfter },
    });
    const pending = invokeTool(req) as Promise<InvokeOutcome>;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(req.retries).toEqual([20 * 60_000]);
    run.abort();
    expect(await pending).toEqual({ kind: "cancelled", attempts: 1 });
    expect(tool.attempts).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("through a run: the asked delay, its cap from a plan's _retry, and a refused delay", () => {
  function rateLimitedRegistry(retryAfterMs: unknown) {
    const tool = { attempts: 0 };
    const registry = createToolRegistry([
      {
        name: "fetchPage",
        retry: {
          attempts: 3,
          maxDelayMs: 60_000,
          shouldRetry: (error: unknown) => ({ retry: true, delayMs: (error as RateLimited).retryAfterMs }),
        },
        run: () => {
          if (tool.attempts++ === 0) throw Object.assign(new RateLimited(0), { retryAfterMs });
          return "page";
        },
      },
    ]);
    return { registry, tool };
  }

  /** Runs `plan` with timers that fire at once and records each call-retry event's delay. */
  async function run(registry: ToolRegistry, plan: unknown) {
    const delays: number[] = [];
    const hub = new EventHub();
    hub.subscribe((event) => {
      if (event.type === "call-retry") delays.push(event.delayMs);
    });
    const timers: Timers = { setTimeout: (callback) => setImmediate(callback), clearTimeout: () => {} };
    const { result } = await runPlan(registry, plan, { events: hub, timers });
    return { delays, status: statusOf(result) };
  }

  it("call-retry's delayMs is the delay asked for; a plan's _retry.maxDelayMs below it ends the retries (never sooner than asked)", async () => {
    const plan = (retry: object) => [
      { _tool: "fetchPage", _id: "p", _retry: retry, _outputPath: "†state.page" },
    ];
    const asked = rateLimitedRegistry(45_000);
    expect(await run(asked.registry, plan({}))).toEqual({
      delays: [45_000],
      status: { p: ["succeeded", undefined] },
    });
    expect(asked.tool.attempts).toBe(2);
    const capped = rateLimitedRegistry(45_000);
    expect(await run(capped.registry, plan({ maxDelayMs: 44_999 }))).toEqual({
      delays: [],
      status: { p: ["failed", "TOOL_ERROR"] },
    });
    expect(capped.tool.attempts).toBe(1);
  });

  it("a refused delay fails the call USAGE, not routed to its failure branch", async () => {
    const { registry } = rateLimitedRegistry(Number.NaN);
    const plan = [{ _tool: "fetchPage", _id: "p", _outputPath: "†state.page || †state.failed" }];
    expect(await run(registry, plan)).toEqual({ delays: [], status: { p: ["failed", "USAGE"] } });
  });
});
