import { AsyncLocalStorage } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { thrownError } from "./__fixtures__/error-codes.js";
import { createEngine, defineTool, type ToolAttemptInfo } from "./index.js";

/** A tool that reports the context it runs in, failing its first attempt when asked to. */
function contextTool(store: AsyncLocalStorage<string>, seen: (string | undefined)[], failFirst = false) {
  let calls = 0;
  return defineTool({
    name: "look",
    input: { type: "object", properties: { v: {} } },
    retry: { attempts: 2, backoffMs: 0 },
    run: async () => {
      await Promise.resolve();
      seen.push(store.getStore());
      calls++;
      if (failFirst && calls === 1) throw new Error("flaky");
      return store.getStore() ?? null;
    },
  });
}
const timers = { setTimeout: (callback: () => void) => queueMicrotask(callback), clearTimeout: () => {} };

describe("aroundTool: the host's wrapper of each tool attempt", () => {
  it("runs every attempt of every call inside the wrapper, which is told the call, tool, run, thread and attempt", async () => {
    const context = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const wrapped: ToolAttemptInfo[] = [];
    const engine = createEngine({
      tools: [contextTool(context, seen, true)],
      timers,
      aroundTool: (attempt, invoke) => {
        wrapped.push(attempt);
        return context.run(`${attempt.callId}#${attempt.attempt}`, invoke);
      },
    });
    const result = await engine.run(
      [
        { _tool: "look", _id: "a", _outputPath: "†state.a" },
        { _tool: "look", _id: "b", v: "†state.a", _outputPath: "†state.b" },
      ],
      { threadId: "t" },
    );
    expect(result.status).toBe("succeeded");
    // a's first attempt threw and was retried inside the wrapper again
    expect(seen).toEqual(["a#1", "a#2", "b#1"]);
    expect(result.state).toEqual({ a: "a#2", b: "b#1" });
    expect(wrapped).toEqual([
      { callId: "a", tool: "look", runId: result.runId, threadId: "t", attempt: 1 },
      { callId: "a", tool: "look", runId: result.runId, threadId: "t", attempt: 2 },
      { callId: "b", tool: "look", runId: result.runId, threadId: "t", attempt: 1 },
    ]);
    // a satisfied call does not run: nothing to wrap
    wrapped.length = 0;
    await engine.run([{ _tool: "look", _id: "a", _outputPath: "†state.a" }], { threadId: "t" });
    expect(wrapped).toEqual([]);
    await engine.close();
  });

  it("wraps the calls of a streaming run too", async () => {
    const wrapped: string[] = [];
    const engine = createEngine({
      tools: [defineTool({ name: "ok", run: () => 1 })],
      aroundTool: (attempt, invoke) => {
        wrapped.push(attempt.callId);
        return invoke();
      },
    });
    const stream = await engine.open({ threadId: "t" });
    stream.add({ _tool: "ok", _id: "s" });
    expect((await stream.close()).calls.s?.status).toBe("succeeded");
    expect(wrapped).toEqual(["s"]);
    await engine.close();
  });

  it("a wrapper that throws fails the call as the tool's own error would", async () => {
    const engine = createEngine({
      tools: [defineTool({ name: "ok", run: () => 1 })],
      aroundTool: () => {
        throw new Error("tracer broke");
      },
    });
    const result = await engine.run([{ _tool: "ok", _id: "c" }], { threadId: "t" });
    expect(result.calls.c).toMatchObject({
      status: "failed",
      error: { code: "TOOL_ERROR", message: "tracer broke" },
    });
    await engine.close();
  });

  it("cannot stand in for the tool: its return value is not used, invoke runs once, and not calling it fails", async () => {
    let runs = 0;
    const tools = [
      defineTool({
        name: "count",
        run: async () => {
          runs++;
          return "from the tool";
        },
      }),
    ];
    const run = async (aroundTool: NonNullable<Parameters<typeof createEngine>[0]["aroundTool"]>) => {
      const engine = createEngine({ tools, aroundTool });
      const result = await engine.run([{ _tool: "count", _id: "c", _outputPath: "†state.c" }], {
        threadId: "t",
      });
      await engine.close();
      return result;
    };
    const replaced = await run(async (_attempt, invoke) => {
      await invoke();
      return 42;
    });
    expect(replaced.state.c).toBe("from the tool");
    const skipped = await run(() => "never ran");
    expect(skipped.calls.c).toMatchObject({
      status: "failed",
      error: { code: "TOOL_ERROR", message: expect.stringContaining("without calling invoke()") },
    });
    runs = 0;
    const twice = await run((_attempt, invoke) => {
      invoke();
      return invoke();
    });
    expect(twice.calls.c).toMatchObject({
      status: "failed",
      error: { message: expect.stringContaining("twice") },
    });
    expect(runs).toBe(1);
  });

  it("cannot run the tool after returning without invoke(): the late invoke() throws, the tool never runs", async () => {
    let runs = 0;
    const lateCalls: unknown[] = [];
    let later: (() => void) | undefined;
    const pay = defineTool({
      name: "pay",
      retry: { attempts: 2, backoffMs: 0 },
      run: () => ++runs,
    });
    const engine = createEngine({
      tools: [pay],
      aroundTool: (_attempt, invoke) => {
        // a tracer's callback API that runs the callback later, after the wrapper returned
        later = () => {
          try {
            invoke();
          } catch (error) {
            lateCalls.push((error as Error).message);
          }
        };
        return undefined;
      },
    });
    const result = await engine.run([{ _tool: "pay", _id: "p", _outputPath: "†state.paid" }], {
      threadId: "t",
    });
    later?.();
    await engine.close();
    expect(result.calls.p).toMatchObject({
      status: "failed",
      error: { message: expect.stringContaining("without calling invoke()") },
    });
    expect(lateCalls).toEqual([expect.stringContaining("after it had returned")]);
    expect(runs).toBe(0);
  });

  it("must be a function (USAGE at createEngine)", () => {
    expect(thrownError(() => createEngine({ tools: [], aroundTool: "yes" as never }))).toMatchObject({
      code: "USAGE",
      message: "createEngine: aroundTool must be a function",
    });
  });
});
