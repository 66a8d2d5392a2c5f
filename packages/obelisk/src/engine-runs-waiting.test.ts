import type { StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it } from "vitest";
import { codeOf } from "./__fixtures__/error-codes.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, createMemoryStore, defineTool, type Engine } from "./index.js";

const echo = defineTool({
  name: "echo",
  input: { type: "object", properties: { value: {} } },
  run: (args) => (args as { value: unknown }).value,
});
/** A plan whose `pay` waits for `†state.approvals.pay` (SPEC §7) while `note` runs. */
const gated = [
  { _tool: "echo", _id: "note", value: 1, _outputPath: "†state.note" },
  { _tool: "echo", _id: "pay", value: "†state.approvals.pay", _outputPath: "†state.paid" },
];
const plain = [{ _tool: "echo", _id: "note", value: 1, _outputPath: "†state.note" }];
const boom = defineTool({
  name: "boom",
  run: () => {
    throw new Error("boom");
  },
});
const failing = [...gated, { _tool: "boom", _id: "bad", _outputPath: "†state.bad" }];

describe.each(storeKinds())("runs.list({ waiting: true }) on the $name store", (kind) => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
    kind.cleanup();
  });
  const engineOn = (store: StateStore = kind.open()): Engine => {
    const engine = createEngine({ tools: [echo, boom], store });
    engines.push(engine);
    return engine;
  };

  it("lists the runs with a call waiting for approval, newest first, with threadId, status and limit", async () => {
    const engine = engineOn();
    const first = await engine.run(gated, { threadId: "a" });
    await engine.run(plain, { threadId: "a" });
    const second = await engine.run(gated, { threadId: "b" });
    const third = await engine.run(failing, { threadId: "c" });
    expect(first.calls.pay?.status).toBe("waiting");
    expect([first.status, third.status]).toEqual(["succeeded", "failed"]);
    const ids = async (options: Parameters<Engine["runs"]["list"]>[0]) =>
      (await engine.runs.list(options)).map((run) => run.runId);
    expect(await ids({ waiting: true })).toEqual([third.runId, second.runId, first.runId]);
    // limit counts waiting runs only (the plain run between them is not one)
    expect(await ids({ waiting: true, limit: 2 })).toEqual([third.runId, second.runId]);
    expect(await ids({ waiting: true, threadId: "a" })).toEqual([first.runId]);
    expect(await ids({ waiting: true, status: "succeeded" })).toEqual([second.runId, first.runId]);
    expect(await ids({ waiting: true, status: "failed" })).toEqual([third.runId]);
    expect(await ids({ waiting: true, threadId: "nobody" })).toEqual([]);
  });

  it("waiting: false (or anything but true) is USAGE naming the option", async () => {
    const engine = engineOn();
    for (const waiting of [false, "yes", 1]) {
      const error = await engine.runs.list({ waiting } as never).catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({ code: "USAGE", message: expect.stringContaining("waiting") });
    }
  });
});

describe("runs.list({ waiting: true }) on a custom store without listWaitingRuns", () => {
  it("is USAGE naming the store method; runs.list without it still works", async () => {
    const memory = createMemoryStore();
    const store = new Proxy(memory, {
      get: (target, key) => {
        if (key === "listWaitingRuns") return undefined;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const engine = createEngine({ tools: [echo], store });
    try {
      await engine.run(gated, { threadId: "a" });
      await expect(engine.runs.list({ waiting: true })).rejects.toMatchObject({
        code: "USAGE",
        message: expect.stringContaining("listWaitingRuns()"),
      });
      expect(await engine.runs.list()).toHaveLength(1);
      expect(await codeOf(engine.runs.list({ waiting: true, threadId: "a" }))).toBe("USAGE");
    } finally {
      await engine.close();
    }
  });
});
