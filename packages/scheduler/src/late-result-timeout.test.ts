import { createToolRegistry, type ToolContext } from "@obelisk/compiler";
import { asThreadId } from "@obelisk/core";
import { describe, expect, it, vi } from "vitest";
import { deferred, flush } from "./__fixtures__/deferred.js";
import { invokeRequest } from "./__fixtures__/invoke-request.js";
import { runPlan } from "./__fixtures__/run-plan.js";
import { type InvokeOutcome, invokeTool } from "./invoke-tool.js";
import { DEFAULT_RETRY } from "./retry-delay.js";
import type { Timers } from "./timers.js";

/**
 * A tool that holds the event loop past its timeout: the timer cannot fire while it runs, and its result's
 * promise reaction runs before the timer's callback. These tests stand for that with a manual clock the
 * tool moves on (as a synchronous loop would) and timers that never fire on their own.
 */
function manualTime() {
  let clock = 1_000;
  const armed: number[] = [];
  const cleared: unknown[] = [];
  const timers: Timers = {
    setTimeout: (_callback, ms) => {
      armed.push(ms);
      return armed.length;
    },
    clearTimeout: (handle) => {
      cleared.push(handle);
    },
  };
  return {
    now: vi.fn(() => clock),
    timers,
    armed,
    cleared,
    /** What a synchronous loop of `ms` does to the clock. */
    spin: (ms: number) => {
      clock += ms;
    },
  };
}

const timeout = { kind: "threw", error: { code: "TIMEOUT", message: "timed out after 20 ms" } };

describe("an attempt whose result comes after its timeout times out (the event loop was held)", () => {
  it("a synchronous tool that spins past its timeout: TIMEOUT, its signal aborted, its value dropped", () => {
    const time = manualTime();
    let signal: AbortSignal | undefined;
    const outcome = invokeTool(
      invokeRequest(
        (_args, ctx) => {
          signal = ctx.signal;
          time.spin(150);
          return "spun";
        },
        { timeoutMs: 20, now: time.now, timers: time.timers },
      ),
    );
    expect(outcome).toMatchObject({ ...timeout, attempts: 1 });
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toMatchObject({ code: "TIMEOUT" });
    // one clock read at the start, one at the result; an attempt without a timeout reads none (the hot path)
    expect(time.now).toHaveBeenCalledTimes(2);
    invokeTool(invokeRequest(() => "v", { now: time.now }));
    expect(time.now).toHaveBeenCalledTimes(2);
  });

  it("a tool that spins after an await: TIMEOUT when its result arrives, before the timer could fire", async () => {
    const time = manualTime();
    const gate = deferred<void>();
    let signal: AbortSignal | undefined;
    const pending = invokeTool(
      invokeRequest(
        async (_args, ctx: ToolContext) => {
          signal = ctx.signal;
          await gate.promise;
          time.spin(150);
          return "spun";
        },
        { timeoutMs: 20, now: time.now, timers: time.timers },
      ),
    ) as Promise<InvokeOutcome>;
    expect(time.armed).toEqual([20]);
    gate.resolve();
    expect(await pending).toMatchObject({ ...timeout, attempts: 1 });
    expect(signal?.aborted).toBe(true);
    expect(time.cleared).toEqual([1]); // the timer that could not fire is cleared
  });

  it("a tool that throws after spinning past its timeout: TIMEOUT, not its error", async () => {
    const time = manualTime();
    const pending = invokeTool(
      invokeRequest(
        async () => {
          await null;
          time.spin(150);
          throw new Error("late failure");
        },
        { timeoutMs: 20, now: time.now, timers: time.timers },
      ),
    ) as Promise<InvokeOutcome>;
    expect(await pending).toMatchObject({ ...timeout, attempts: 1 });
  });

  it("the boundary is the timer's: a result at exactly timeoutMs times out, one ms sooner does not", async () => {
    for (const [spent, kind] of [
      [19, "returned"],
      [20, "threw"],
    ] as const) {
      const time = manualTime();
      const sync = invokeTool(
        invokeRequest(
          () => {
            time.spin(spent);
            return "v";
          },
          { timeoutMs: 20, now: time.now, timers: time.timers },
        ),
      );
      expect(sync).toMatchObject({ kind });
      const later = invokeTool(
        invokeRequest(
          async () => {
            await null;
            time.spin(spent);
            return "v";
          },
          { timeoutMs: 20, now: time.now, timers: time.timers },
        ),
      );
      expect(await later).toMatchObject({ kind });
    }
  });

  it("a late attempt is retried as a timeout is, and the next attempt in time succeeds", async () => {
    const time = manualTime();
    let calls = 0;
    const policy = { ...DEFAULT_RETRY, attempts: 2, backoffMs: 0 };
    const pending = invokeTool(
      invokeRequest(
        () => {
          calls++;
          if (calls === 1) time.spin(150);
          return calls;
        },
        { timeoutMs: 20, now: time.now, policy, timers: { ...time.timers, setTimeout: (run) => run() } },
      ),
    );
    await flush();
    expect(await pending).toEqual({ kind: "returned", value: 2, attempts: 2 });
  });

  it("through the runner, with its injected clock: the call fails TIMEOUT and writes nothing", async () => {
    const time = manualTime();
    const registry = createToolRegistry([
      {
        name: "spin",
        timeoutMs: 20,
        run: async () => {
          await null;
          time.spin(150);
          return "spun";
        },
      },
    ]);
    const plan = [{ _tool: "spin", _id: "s", _outputPath: "†state.x" }];
    const { result, store } = await runPlan(registry, plan, { now: time.now, timers: time.timers });
    expect(result.calls[0]).toMatchObject({ status: "failed", error: { code: "TIMEOUT" } });
    expect(await store.readState(asThreadId("t"))).toEqual({});
  });
});

describe("an injected clearTimeout that throws rejects the attempt with its error (the runner's failure)", () => {
  it("a clearTimeout that throws when the tool answers in time", async () => {
    const broken = new Error("clear broke");
    const timers: Timers = {
      setTimeout: () => 1,
      clearTimeout: () => {
        throw broken;
      },
    };
    const pending = invokeTool(invokeRequest(async () => "v", { timeoutMs: 100, timers }));
    await expect(pending).rejects.toBe(broken);
  });
});
