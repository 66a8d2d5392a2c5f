import type { StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it } from "vitest";
import { deferred, until } from "./__fixtures__/deferred.js";
import { codeOf } from "./__fixtures__/error-codes.js";
import { type StoreKind, storeKinds } from "./__fixtures__/stores.js";
import { createEngine, createMemoryStore, defineTool, type Engine, type ToolDefinition } from "./index.js";

const echo = defineTool({
  name: "echo",
  input: { type: "object", properties: { value: {} } },
  run: (args) => (args as { value: unknown }).value,
});
const plan = (value: number) => [{ _tool: "echo", _id: "e", value, _outputPath: "†state.v" }];

describe.each(storeKinds())("bounded history through the engine, $name store", (kind: StoreKind) => {
  let engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines) await engine.close().catch(() => undefined);
    engines = [];
    kind.cleanup();
  });
  const engineOf = (tools: readonly ToolDefinition[] = [echo], store: StateStore = kind.open()): Engine => {
    const engine = createEngine({ tools, store });
    engines.push(engine);
    return engine;
  };

  it("runs.prune keeps the newest runs of a thread and says what it removed", async () => {
    const engine = engineOf();
    for (const value of [1, 2, 3]) await engine.run(plan(value), { threadId: "t" });
    await engine.run(plan(9), { threadId: "other" });
    const pruned = await engine.runs.prune({ threadId: "t", keepLast: 1 });
    expect(pruned.runIds).toHaveLength(2);
    expect(await engine.runs.list({ threadId: "t" })).toHaveLength(1);
    expect(await engine.runs.list({ threadId: "other" })).toHaveLength(1);
    expect((await engine.get("t", "†state.v")).value).toBe(3);
  });

  it("runs.prune refuses an unknown option and a call without a criterion (USAGE), removing nothing", async () => {
    const engine = engineOf();
    await engine.run(plan(1), { threadId: "t" });
    expect(await codeOf(engine.runs.prune({ keep: 1 } as never))).toBe("USAGE");
    expect(await codeOf(engine.runs.prune({ threadId: "t" }))).toBe("USAGE");
    expect(await codeOf(engine.runs.prune({ threadId: 3 } as never))).toBe("USAGE");
    expect(await engine.runs.list({ threadId: "t" })).toHaveLength(1);
  });

  it("deleteThread removes the thread's values and history: the same plan then runs again", async () => {
    const engine = engineOf();
    const first = await engine.run(plan(1), { threadId: "t" });
    expect(first.calls.e?.status).toBe("succeeded");
    expect((await engine.run(plan(1), { threadId: "t" })).calls.e?.status).toBe("satisfied");
    const deletion = await engine.deleteThread("t");
    expect(deletion).toMatchObject({ deleted: true, runs: 2 });
    expect((await engine.get("t", "†state.v")).found).toBe(false);
    expect(await engine.runs.list({ threadId: "t" })).toEqual([]);
    expect((await engine.run(plan(1), { threadId: "t" })).calls.e?.status).toBe("succeeded");
    expect(await engine.deleteThread("never")).toMatchObject({ deleted: false });
  });

  it("deleteThread while a run holds the thread is THREAD_BUSY and removes nothing", async () => {
    const gate = deferred<number>();
    let started = false;
    const slow = defineTool({
      name: "slow",
      run: () => {
        started = true;
        return gate.promise;
      },
    });
    const engine = engineOf([echo, slow]);
    await engine.run(plan(1), { threadId: "t" });
    const running = engine.run([{ _tool: "slow", _outputPath: "†state.s" }], { threadId: "t" });
    await until(() => started);
    expect(await codeOf(engine.deleteThread("t"))).toBe("THREAD_BUSY");
    gate.resolve(2);
    expect((await running).status).toBe("succeeded");
    expect((await engine.get("t", "†state.v")).value).toBe(1);
    expect(await engine.deleteThread("t")).toMatchObject({ deleted: true });
  });
});

describe("a custom store without the history methods", () => {
  it("runs.prune and deleteThread are USAGE naming the store method", async () => {
    const memory = createMemoryStore();
    // a store as a host might write one: every method but the optional history ones
    const store = new Proxy(memory, {
      get: (target, key) => {
        if (key === "pruneRuns" || key === "deleteThread") return undefined;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const engine = createEngine({ tools: [echo], store });
    try {
      await expect(engine.runs.prune({ keepLast: 1 })).rejects.toMatchObject({
        code: "USAGE",
        message: expect.stringContaining("pruneRuns()"),
      });
      await expect(engine.deleteThread("t")).rejects.toMatchObject({
        code: "USAGE",
        message: expect.stringContaining("deleteThread()"),
      });
    } finally {
      await engine.close();
    }
  });
});
