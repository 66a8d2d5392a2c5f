import type { StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it, vi } from "vitest";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, createMemoryStore, defineTool, type Engine } from "./index.js";

const echo = defineTool({
  name: "echo",
  input: { type: "object", properties: { value: {} } },
  run: (args) => (args as { value: unknown }).value,
});
const plain = [{ _tool: "echo", _id: "note", value: 1, _outputPath: "†state.note" }];
/** `pay` waits for `†state.approvals.pay` (SPEC §7). */
const gated = [{ _tool: "echo", _id: "pay", value: "†state.approvals.pay", _outputPath: "†state.paid" }];

/** The engine and its stores share one clock the tests move. */
let time = Date.UTC(2026, 0, 1);
const now = () => time;

/** `store` whose `pruneHistory` rejects the first `failures` times. */
function failingPrunes(store: StateStore, failures: number): StateStore {
  let left = failures;
  return new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (key === "pruneHistory" && typeof value === "function")
        return (...args: unknown[]) =>
          left-- > 0 ? Promise.reject(new Error("prune broke")) : value.apply(target, args);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe.each(storeKinds())("createEngine({ history }) on the $name store (decision 0075)", (kind) => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
    kind.cleanup();
  });
  const engineWith = (history: object, store: StateStore = kind.open()): Engine => {
    const engine = createEngine({ tools: [echo], store, history, now });
    engines.push(engine);
    return engine;
  };
  const ids = async (engine: Engine, threadId: string) =>
    (await engine.runs.list({ threadId })).map((run) => run.runId);

  it("keeps each thread's newest keepRuns runs: a run prunes its own thread only", async () => {
    const engine = engineWith({ keepRuns: 2 });
    const a = [];
    for (let at = 0; at < 4; at++) a.push((await engine.run(plain, { threadId: "a" })).runId);
    expect(await ids(engine, "a")).toEqual([a[3], a[2]]);
    // the removed runs' records went with them
    await expect(engine.runs.show(a[0] as string)).rejects.toMatchObject({ code: "RUN_NOT_FOUND" });
    const b = (await engine.run(plain, { threadId: "b" })).runId;
    expect(await ids(engine, "b")).toEqual([b]);
    expect(await ids(engine, "a")).toEqual([a[3], a[2]]);
    expect((await engine.get("a", "†state.note")).value).toBe(1);
  });

  it("olderThanMs: the runs that ended longer ago than that before the run's end, on the engine's clock", async () => {
    const engine = engineWith({ olderThanMs: 60_000 });
    const old = (await engine.run(plain, { threadId: "t" })).runId;
    time += 30_000;
    const recent = (await engine.run(plain, { threadId: "t" })).runId;
    expect(await ids(engine, "t")).toEqual([recent, old]);
    time += 31_000;
    const last = (await engine.run(plain, { threadId: "t" })).runId;
    expect(await ids(engine, "t")).toEqual([last, recent]);
  });

  it("keeps a run waiting for an approval until a resume ran it, then prunes it like any other", async () => {
    const engine = engineWith({ keepRuns: 1 });
    const waiting = await engine.run(gated, { threadId: "t" });
    expect(waiting.calls.pay?.status).toBe("waiting");
    const later = [];
    for (let at = 0; at < 3; at++) later.push((await engine.run(plain, { threadId: "t" })).runId);
    expect(await ids(engine, "t")).toEqual([later[2], waiting.runId]);
    expect((await engine.runs.list({ waiting: true })).map((run) => run.runId)).toEqual([waiting.runId]);
    await engine.set("t", "†state.approvals.pay", "ok");
    const resumed = await engine.resume(waiting.runId);
    expect(resumed.calls.pay?.status).toBe("succeeded");
    expect(await ids(engine, "t")).toEqual([resumed.runId]);
  });

  it("a streamed run prunes its thread when it ends, as a run does", async () => {
    const engine = engineWith({ keepRuns: 1 });
    const first = (await engine.run(plain, { threadId: "t" })).runId;
    const stream = await engine.open({ threadId: "t" });
    stream.add(plain[0] as (typeof plain)[number]);
    const streamed = await stream.close();
    expect(streamed.status).toBe("succeeded");
    expect(await ids(engine, "t")).toEqual([streamed.runId]);
    await expect(engine.runs.show(first)).rejects.toMatchObject({ code: "RUN_NOT_FOUND" });
  });

  it("a failing prune is a warning: the run's result stands, and the next run prunes what is left", async () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    try {
      const engine = engineWith({ keepRuns: 1 }, failingPrunes(kind.open(), 2));
      const first = (await engine.run(plain, { threadId: "t" })).runId;
      const second = await engine.run(plain, { threadId: "t" });
      expect(second.status).toBe("succeeded");
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining("prune broke"),
        expect.objectContaining({ code: "OBELISK_AFTER_RUN_ERROR" }),
      );
      expect(await ids(engine, "t")).toEqual([second.runId, first]);
      const third = (await engine.run(plain, { threadId: "t" })).runId;
      expect(await ids(engine, "t")).toEqual([third]);
    } finally {
      warn.mockRestore();
    }
  });
});

describe("createEngine's history option is checked (USAGE)", () => {
  const refusal = (options: object) => {
    try {
      createEngine({ tools: [echo], ...options });
    } catch (error) {
      return error as { code: string; message: string; hint?: string };
    }
    throw new Error("createEngine accepted it");
  };

  it("refuses a policy it cannot read", () => {
    for (const history of [5, null, {}, { keepRuns: 0 }, { keepRuns: 2.5 }, { olderThanMs: -1 }, { keep: 1 }])
      expect(refusal({ history }).code, JSON.stringify(history)).toBe("USAGE");
    expect(refusal({ history: { keepRuns: 0 } }).message).toBe(
      "createEngine: history: keepRuns must be a whole number >= 1, not 0",
    );
  });

  it("refuses a store that cannot prune its history", () => {
    const store = createMemoryStore();
    const custom = new Proxy(store, {
      get: (target, key) => (key === "pruneHistory" ? undefined : Reflect.get(target, key)),
    });
    const error = refusal({ store: custom, history: { keepRuns: 10 } });
    expect(error.code).toBe("USAGE");
    expect(error.message).toContain("history needs a store with pruneHistory");
  });
});
