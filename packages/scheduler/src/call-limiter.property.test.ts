import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { flush } from "./__fixtures__/deferred.js";
import { CallLimiter } from "./call-limiter.js";

const TOOLS = ["a", "b", "c"] as const;

/** One step of a random workload: a call asks for a slot, a running call ends, or a waiting call's run aborts. */
type Step =
  | { readonly kind: "ask"; readonly tool: number; readonly priority: number }
  | { readonly kind: "finish"; readonly pick: number }
  | { readonly kind: "abort"; readonly pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("ask" as const), tool: fc.nat(2), priority: fc.nat(3) }),
  fc.record({ kind: fc.constant("finish" as const), pick: fc.nat(20) }),
  fc.record({ kind: fc.constant("abort" as const), pick: fc.nat(20) }),
);

interface Call {
  readonly tool: number;
  readonly priority: number;
  readonly order: number;
  readonly controller: AbortController;
  state: "waiting" | "running" | "done" | "aborted";
  end?: () => void;
}

describe("CallLimiter (property): limits, no idle slot while a call could start, best call first", () => {
  it("holds for random asks, ends and aborts", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.option(fc.integer({ min: 1, max: 2 }), { nil: undefined }), {
          minLength: 3,
          maxLength: 3,
        }),
        fc.array(step, { maxLength: 40 }),
        fc.boolean(),
        async (global, toolLimits, steps, flushEach) => {
          const limiter = new CallLimiter(global, (tool) => toolLimits[TOOLS.indexOf(tool as "a")]);
          const calls: Call[] = [];
          const runningOf = (tool?: number) =>
            calls.filter((c) => c.state === "running" && (tool === undefined || c.tool === tool)).length;
          const free = (tool: number) => runningOf(tool) < (toolLimits[tool] ?? Number.POSITIVE_INFINITY);
          const better = (x: Call, y: Call) =>
            x.priority > y.priority || (x.priority === y.priority && x.order < y.order);
          for (const next of steps) {
            if (next.kind === "ask") {
              const call: Call = {
                tool: next.tool,
                priority: next.priority,
                order: calls.length,
                controller: new AbortController(),
                state: "waiting",
              };
              calls.push(call);
              limiter
                .run(TOOLS[next.tool] as string, next.priority, call.controller.signal, () => {
                  // at its start: within the limits, and no eligible waiting call ranks before it
                  expect(call.state).toBe("waiting");
                  expect(runningOf()).toBeLessThan(global);
                  expect(free(call.tool)).toBe(true);
                  for (const other of calls)
                    if (other !== call && other.state === "waiting" && free(other.tool))
                      expect(better(other, call)).toBe(false);
                  call.state = "running";
                  const ended = new Promise<void>((resolve) => {
                    call.end = resolve;
                  });
                  // registered before the limiter's own callback: the model frees the slot just before it does
                  void ended.then(() => {
                    call.state = "done";
                  });
                  return ended;
                })
                .catch(() => {
                  expect(call.state).toBe("aborted");
                });
            } else {
              const wanted = next.kind === "finish" ? "running" : "waiting";
              const candidates = calls.filter((c) => c.state === wanted);
              const chosen = candidates[next.pick % Math.max(1, candidates.length)];
              if (chosen !== undefined && next.kind === "finish") chosen.end?.();
              if (chosen !== undefined && next.kind === "abort") {
                chosen.state = "aborted";
                chosen.controller.abort(new Error("aborted"));
              }
            }
            if (flushEach) await flush();
          }
          await flush();
          // work-conserving: a free global slot means every waiting call's tool is full
          if (runningOf() < global)
            for (const call of calls) if (call.state === "waiting") expect(free(call.tool)).toBe(false);
          // everything still waiting starts once the running calls end
          for (let round = 0; round < calls.length + 1; round++) {
            for (const call of calls) if (call.state === "running") call.end?.();
            await flush();
          }
          expect(calls.filter((c) => c.state === "waiting" || c.state === "running")).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
