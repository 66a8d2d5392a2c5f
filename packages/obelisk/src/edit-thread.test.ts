import { asThreadId } from "@obelisk/core";
import { afterEach, describe, expect, it } from "vitest";
import { Controller } from "./__fixtures__/controlled-tools.js";
import { until } from "./__fixtures__/deferred.js";
import { codeOf } from "./__fixtures__/error-codes.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine } from "./index.js";

const plan = [
  { _tool: "wait", _id: "a", key: "a", _outputPath: "†state.a" },
  { _tool: "wait", _id: "h", key: "h", value: "†state.a", _outputPath: "†state.h" },
];

type Edit = (engine: Engine) => Promise<unknown>;
/** Each edit and the state it leaves after the run's `{ a: "a", h: "h" }`. */
const edits: ReadonlyArray<readonly [string, Edit, object]> = [
  ["reset", (engine) => engine.reset("t"), {}],
  ["keepLastN(0)", (engine) => engine.keepLastN("t", 0), {}],
  ["set", (engine) => engine.set("t", "†state.a", "overwritten"), { a: "overwritten", h: "h" }],
  ["unset", (engine) => engine.unset("t", "†state.a"), { h: "h" }],
];

describe.each(storeKinds())("variable edits and the thread lock on the $name store", (kind) => {
  let engine: Engine;
  afterEach(async () => {
    await engine.close();
    kind.cleanup();
  });

  it.each(edits)(
    "%s while a run holds the thread is THREAD_BUSY and changes nothing",
    async (_name, edit) => {
      const control = new Controller();
      engine = createEngine({ tools: [control.tool("wait")], store: kind.open() });
      const running = engine.run(plan, { threadId: "t" });
      await until(() => control.started.length === 1);
      control.finish("a");
      await until(() => control.started.includes("h"));
      expect(await codeOf(edit(engine))).toBe("THREAD_BUSY");
      control.finish("h");
      const result = await running;
      expect(result.status).toBe("succeeded");
      expect(result.state).toEqual({ a: "a", h: "h" });
      expect(await engine.get("t", "†state")).toMatchObject({ found: true, value: { a: "a", h: "h" } });
    },
  );

  it.each(edits)(
    "%s with lockWaitMs waits for the run to end, then applies",
    async (_name, edit, expected) => {
      const control = new Controller();
      engine = createEngine({ tools: [control.tool("wait")], store: kind.open(), lockWaitMs: 60_000 });
      const running = engine.run(plan, { threadId: "t" });
      await until(() => control.started.length === 1);
      let edited = false;
      const editing = edit(engine).then(() => {
        edited = true;
      });
      control.finish("a");
      await until(() => control.started.includes("h"));
      expect(edited).toBe(false);
      control.finish("h");
      expect((await running).state).toEqual({ a: "a", h: "h" });
      await editing;
      expect(edited).toBe(true);
      expect(await engine.get("t", "†state")).toEqual({ found: true, value: expected });
    },
  );

  it("keepLastN with a bad n is USAGE at once, also while a run holds the thread (checked before the lock)", async () => {
    const control = new Controller();
    engine = createEngine({ tools: [control.tool("wait")], store: kind.open(), lockWaitMs: 60_000 });
    const running = engine.run(plan.slice(0, 1), { threadId: "t" });
    await until(() => control.started.length === 1);
    expect(await codeOf(engine.keepLastN("t", -1))).toBe("USAGE");
    control.finish("a");
    expect((await running).status).toBe("succeeded");
  });

  it("an edit releases the lock: a run after it takes the thread", async () => {
    const control = new Controller();
    engine = createEngine({ tools: [control.tool("wait")], store: kind.open() });
    await engine.set("t", "†state.x", 1);
    await engine.keepLastN("t", 5);
    await engine.reset("t");
    const running = engine.run(plan.slice(0, 1), { threadId: "t" });
    await until(() => control.started.length === 1);
    control.finish("a");
    expect((await running).status).toBe("succeeded");
  });

  it("set on a thread no run has touched checks the engine's stateSchema", async () => {
    const stateSchema = { type: "object", properties: { count: { type: "integer", minimum: 0 } } };
    engine = createEngine({ tools: [], store: kind.open(), stateSchema });
    expect(await codeOf(engine.set("fresh", "†state.count", -3))).toBe("OUTPUT_SCHEMA_VIOLATION");
    expect(await engine.get("fresh", "†state.count")).toMatchObject({ found: false });
    await engine.set("fresh", "†state.count", 3);
    expect(await engine.get("fresh", "†state.count")).toMatchObject({ found: true, value: 3 });
  });

  it("set takes only its documented options: a plain-JS caller's limit or run id is USAGE, nothing written", async () => {
    engine = createEngine({ tools: [], store: kind.open() });
    await expect(
      engine.set("t", "†state.v", "x".repeat(50), { maxValueBytes: 10, runId: "forged" } as never),
    ).rejects.toMatchObject({ code: "USAGE", message: 'unknown option "maxValueBytes" for set' });
    expect(await engine.get("t", "†state.v")).toMatchObject({ found: false });
    expect(await engine.runs.list({ threadId: "t" })).toEqual([]);
  });

  it("set holds the value to the engine's maxValueBytes: USAGE with how to raise it, before the lock", async () => {
    engine = createEngine({ tools: [], store: kind.open(), limits: { maxValueBytes: 100 } });
    // a thread held by another: an over-size value is refused without waiting for (or asking for) the lock
    const lock = await engine.store.lockThread(asThreadId("t"), { waitMs: 0 });
    await expect(engine.set("t", "†state.big", "x".repeat(200))).rejects.toMatchObject({
      code: "USAGE",
      message: "†state.big: the value is larger than 100 bytes of JSON (limits.maxValueBytes)",
      hint: expect.stringContaining(
        "raise the limit: createEngine({ limits: { maxValueBytes: <n> } }) (now 100)",
      ),
      data: { reference: "†state.big", maxValueBytes: 100 },
    });
    await lock.release();
    expect(await engine.get("t", "†state.big")).toMatchObject({ found: false });
    expect(await engine.store.getThread(asThreadId("t"))).toBeUndefined();
    await engine.set("t", "†state.big", "x".repeat(50));
    expect(await engine.get("t", "†state.big")).toMatchObject({ found: true, value: "x".repeat(50) });
  });
});
