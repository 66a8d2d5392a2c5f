import { createToolRegistry } from "@obelisk/compiler";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { invokeRequest } from "./__fixtures__/invoke-request.js";
import { runPlan } from "./__fixtures__/run-plan.js";
import { type InvokeOutcome, invokeTool } from "./invoke-tool.js";
import { DEFAULT_RETRY } from "./retry-delay.js";

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
