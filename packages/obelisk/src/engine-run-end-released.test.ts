import { afterEach, describe, expect, it } from "vitest";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, type RunEvent, type RunResult } from "./index.js";

const tools = [{ name: "step", input: { type: "object" }, run: (args: unknown) => args as object }];

/**
 * An event-driven agent loop: the run-end observer starts the thread's next tick at once. Its answer (or
 * the error code it threw) is what the returned promise resolves with.
 */
function nextTickFromRunEnd(engine: Engine): {
  readonly onEvent: (event: RunEvent) => void;
  readonly next: Promise<RunResult | string>;
} {
  let answer: (value: RunResult | string) => void = () => {};
  const next = new Promise<RunResult | string>((resolve) => {
    answer = resolve;
  });
  const onEvent = (event: RunEvent): void => {
    if (event.type !== "run-end") return;
    engine
      .run([{ _tool: "step", _id: "next", _outputPath: "†state.next" }], { threadId: "t" })
      .then(answer, (error) => answer(String((error as { code?: unknown }).code)));
  };
  return { onEvent, next };
}

describe.each(storeKinds())("run-end comes once the thread is released ($name store)", (kind) => {
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
    kind.cleanup();
  });

  it("run: the next run started from run-end gets the thread, not THREAD_BUSY", async () => {
    engine = createEngine({ tools, store: kind.open() });
    const { onEvent, next } = nextTickFromRunEnd(engine);
    const first = await engine.run([{ _tool: "step", _outputPath: "†state.first" }], {
      threadId: "t",
      onEvent,
    });
    expect(first.status).toBe("succeeded");
    expect(await next).toMatchObject({ status: "succeeded", state: { first: {}, next: {} } });
  });

  it("run that failed: its run-end releases the thread too", async () => {
    engine = createEngine({
      tools: [...tools, { name: "boom", run: () => Promise.reject(new Error("no")) }],
      store: kind.open(),
    });
    const { onEvent, next } = nextTickFromRunEnd(engine);
    const first = await engine.run([{ _tool: "boom" }], { threadId: "t", onEvent });
    expect(first.status).toBe("failed");
    expect(await next).toMatchObject({ status: "succeeded" });
  });

  it("open: close()'s run-end comes after the stream released the thread", async () => {
    engine = createEngine({ tools, store: kind.open() });
    const { onEvent, next } = nextTickFromRunEnd(engine);
    const stream = await engine.open({ threadId: "t", onEvent });
    expect(stream.add({ _tool: "step", _outputPath: "†state.first" }).ok).toBe(true);
    expect((await stream.close()).status).toBe("succeeded");
    expect(await next).toMatchObject({ status: "succeeded", state: { first: {}, next: {} } });
  });

  it("open: a stream its signal ended releases the thread before its run-end", async () => {
    engine = createEngine({ tools, store: kind.open() });
    const { onEvent, next } = nextTickFromRunEnd(engine);
    const abort = new AbortController();
    const stream = await engine.open({ threadId: "t", onEvent, signal: abort.signal });
    abort.abort();
    expect((await stream.close()).status).toBe("cancelled");
    expect(await next).toMatchObject({ status: "succeeded" });
  });
});
