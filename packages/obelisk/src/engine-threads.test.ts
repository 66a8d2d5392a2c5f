import { ObeliskError } from "@obelisk/core";
import { afterEach, describe, expect, it } from "vitest";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, createMemoryStore, type Engine, type StateStore } from "./index.js";

// The s32 user review (L10): no way to list a store's threads.

const tools = [{ name: "echo", run: (args: unknown) => (args as { v: unknown }).v }];

describe.each(storeKinds())("threads.list on the $name store", (kind) => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
    kind.cleanup();
  });

  it("lists every thread by id: what it holds and its newest run (none for a thread only set wrote)", async () => {
    let tick = Date.UTC(2026, 0, 1);
    const engine = createEngine({ tools, store: kind.open(), now: () => (tick += 1000) });
    engines.push(engine);
    expect(await engine.threads.list()).toEqual([]);
    await engine.run([{ _tool: "echo", v: "hi", _outputPath: "†state.greeting" }], { threadId: "b-run" });
    const second = await engine.run([{ _tool: "echo", v: 2 }], { threadId: "b-run" });
    await engine.set("a-set", "†state.note", { text: "x" });
    const [set, ran] = await engine.threads.list();
    expect(set).toEqual({
      threadId: "a-set",
      createdAt: expect.any(String),
      variables: 1,
      variableBytes: 12,
      callOutputs: 0,
      callOutputBytes: 0,
      runs: 0,
    });
    expect(ran).toMatchObject({ threadId: "b-run", variables: 1, variableBytes: 4, callOutputs: 1, runs: 2 });
    expect(ran?.lastRun).toEqual({
      runId: second.runId,
      status: "succeeded",
      startedAt: expect.any(String),
      endedAt: expect.any(String),
    });
    await engine.deleteThread("a-set");
    expect((await engine.threads.list()).map((thread) => thread.threadId)).toEqual(["b-run"]);
  });
});

it("a store without listThreads (a custom one) is USAGE", async () => {
  const memory = createMemoryStore();
  const store = new Proxy(memory, {
    get: (target, key) => (key === "listThreads" ? undefined : Reflect.get(target, key)),
  }) as StateStore;
  const engine = createEngine({ tools, store });
  const error = await engine.threads.list().then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(ObeliskError.is(error) && error.code).toBe("USAGE");
  expect((error as Error).message).toMatch(/listThreads/);
});
