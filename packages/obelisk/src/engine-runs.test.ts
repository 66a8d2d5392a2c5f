import type { StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it } from "vitest";
import { crashable } from "./__fixtures__/crashable-store.js";
import { until } from "./__fixtures__/deferred.js";
import { steps } from "./__fixtures__/step-tool.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, type ToolDefinition } from "./index.js";

const plan = (hang: boolean) => [
  { _tool: "step", key: "a", _outputPath: "†state.a" },
  { _tool: "step", key: "b", hang, _outputPath: "†state.b" },
];

describe.each(storeKinds())("runs of a process that stopped, on the $name store", (kind) => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
    kind.cleanup();
  });
  const engineOn = (store: StateStore, tool: ToolDefinition): Engine => {
    const engine = createEngine({ tools: [tool], store });
    engines.push(engine);
    return engine;
  };

  /** A run on thread `t` whose engine died with call `b` in flight; answers its run id and the live engine. */
  async function crashedRun(): Promise<{ runId: string; engine: Engine; ran: string[] }> {
    const store = kind.open();
    const dying = crashable(store);
    const first = steps(true);
    void createEngine({ tools: [first.tool], store: dying.store }).run(plan(true), { threadId: "t" });
    await until(() => first.ran.includes("b"));
    const [running] = await store.listRuns();
    dying.crash();
    const second = steps();
    return { runId: running?.runId as string, engine: engineOn(store, second.tool), ran: second.ran };
  }

  it("lists the dead run interrupted, with a reason, and finds it by status to resume", async () => {
    const { runId, engine, ran } = await crashedRun();
    const [listed] = await engine.runs.list({ threadId: "t" });
    expect(listed).toMatchObject({
      runId,
      status: "interrupted",
      reason: expect.stringContaining('no run holds thread "t"'),
      endedAt: expect.any(String),
    });
    expect((await engine.runs.list({ status: "interrupted" })).map((run) => run.runId)).toEqual([runId]);
    expect(await engine.runs.list({ status: "running" })).toEqual([]);
    expect((await engine.runs.show(runId)).run.status).toBe("interrupted");
    const resumed = await engine.resume(runId);
    expect(resumed.status).toBe("succeeded");
    expect(ran).toEqual(["b"]);
    // continued: not to be resumed again; the reason stays
    expect((await engine.runs.show(runId)).run).toMatchObject({
      status: "cancelled",
      reason: listed?.reason,
    });
    expect(await engine.runs.list({ status: "interrupted" })).toEqual([]);
  });

  it("a re-sent plan marks the dead run interrupted as it takes the thread, and runs only what had not finished", async () => {
    const { runId, engine, ran } = await crashedRun();
    const again = await engine.run(plan(false), { threadId: "t" });
    expect(Object.values(again.calls).map((call) => call.status)).toEqual(["satisfied", "succeeded"]);
    expect(ran).toEqual(["b"]);
    expect((await engine.runs.show(runId)).run).toMatchObject({
      status: "interrupted",
      reason: expect.stringContaining('thread "t" was locked again'),
    });
    expect((await engine.runs.list({ threadId: "t" })).map((run) => run.status)).toEqual([
      "succeeded",
      "interrupted",
    ]);
  });

  it("a run another engine has in progress on the store is never marked", async () => {
    const store = kind.open();
    const held = steps(true);
    const live = engineOn(store, held.tool);
    const stream = await live.open({ threadId: "t" });
    stream.add({ _tool: "step", key: "a", hang: true });
    await until(() => held.ran.includes("a"));
    // SQLite: another connection to the file, as another process has; memory: the same store
    const other = engineOn(kind.name === "sqlite" ? kind.open() : store, steps().tool);
    for (const engine of [live, other]) {
      expect((await engine.runs.list()).map((run) => run.status)).toEqual(["running"]);
      expect(await engine.runs.list({ status: "interrupted" })).toEqual([]);
      expect((await engine.runs.show(stream.runId)).run.status).toBe("running");
    }
    await expect(other.run(plan(false), { threadId: "t" })).rejects.toMatchObject({ code: "THREAD_BUSY" });
    expect((await other.runs.show(stream.runId)).run.status).toBe("running");
  });
});

describe("engine.runs.list's limit", () => {
  it("is a whole number from 1, as the CLI's --limit: 0 is USAGE with a hint, not an empty list", async () => {
    const engine = createEngine({ tools: [{ name: "ok", run: () => 1 }] });
    await engine.run([{ _tool: "ok" }], { threadId: "t" });
    await expect(engine.runs.list({ limit: 0 })).rejects.toMatchObject({
      code: "USAGE",
      message: "runs.list's limit must be a whole number from 1, not 0",
      hint: "leave limit out to list every run (newest first)",
    });
    for (const limit of [-1, 1.5, Number.NaN, "2", null]) {
      await expect(engine.runs.list({ limit } as never)).rejects.toMatchObject({ code: "USAGE" });
    }
    expect(await engine.runs.list({ limit: 1 })).toHaveLength(1);
    await engine.close();
  });
});

describe("engine.runs.list's status", () => {
  it("is one of the run statuses (USAGE with the nearest as hint)", async () => {
    const engine = createEngine({ tools: [] });
    await expect(engine.runs.list({ status: "interupted" as never })).rejects.toMatchObject({
      code: "USAGE",
      hint: expect.stringContaining("interrupted"),
    });
    for (const status of [3, null, ""]) {
      await expect(engine.runs.list({ status } as never)).rejects.toMatchObject({ code: "USAGE" });
    }
    await expect(engine.runs.list({ state: "running" } as never)).rejects.toMatchObject({ code: "USAGE" });
    await engine.close();
  });

  it("filters the answer of a store that does not filter by status itself", async () => {
    const engine = createEngine({
      tools: [
        { name: "ok", run: () => 1 },
        {
          name: "boom",
          run: () => {
            throw new Error("boom");
          },
        },
      ],
    });
    await engine.run([{ _tool: "ok" }], { threadId: "t" });
    await engine.run([{ _tool: "boom" }], { threadId: "f" });
    const store = engine.store;
    // a custom store that knows no status option: it answers every run
    const blind: StateStore = new Proxy(store, {
      get: (target, key) => {
        if (key === "listRuns") return () => store.listRuns();
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const custom = createEngine({ tools: [], store: blind });
    expect((await custom.runs.list({ status: "failed" })).map((run) => run.threadId)).toEqual(["f"]);
    expect((await custom.runs.list({ status: "succeeded" })).map((run) => run.threadId)).toEqual(["t"]);
    expect(await custom.runs.list({ status: "interrupted" })).toEqual([]);
    await custom.close();
  });
});
