import { afterEach, describe, expect, it } from "vitest";
import { codeOf } from "./__fixtures__/error-codes.js";
import { type SnapshotStore, snapshotStoreKinds } from "./__fixtures__/snapshot-stores.js";
import { asRunId, asThreadId, createEngine, defineTool, type Engine, type EngineOptions } from "./index.js";

const THREADS = ["t", "fresh"];
const stateSchema = {
  type: "object",
  properties: {
    approvals: { type: "object", additionalProperties: { type: "boolean" } },
    count: { type: "integer", minimum: 0 },
  },
};
const echo = defineTool({
  name: "echo",
  input: { type: "object", properties: { value: {} } },
  run: (args) => (args as { value: unknown }).value,
});

/** A refused write: what it is, the reference and value given, and the code it is refused with. */
type Refusal = readonly [name: string, reference: string, value: unknown, code: string];

/** Refused on any thread. */
const refusals: readonly Refusal[] = [
  ["a malformed reference", "†state.a b", 1, "REF_SYNTAX"],
  ["a kind that cannot be written", "†input.x", 1, "OUTPUT_PATH_READONLY"],
  ["the whole state", "†state", {}, "USAGE"],
  ["a negative index", "†state.list[-1]", 1, "USAGE"],
  ["a forbidden segment", "†state.__proto__.x", 1, "REF_FORBIDDEN_SEGMENT"],
  ["a value breaking the state schema", "†state.count", -1, "OUTPUT_SCHEMA_VIOLATION"],
  ["an approval that is not a boolean", "†state.approvals.deploy", "yes", "OUTPUT_SCHEMA_VIOLATION"],
  ["a value over maxValueBytes", "†state.big", "x".repeat(200), "USAGE"],
  ["a value that is not JSON", "†state.when", new Date(0), "USAGE"],
];
/** Refused on the thread `t` only, which holds `{ count: 1, n: 5, list: [1] }`. */
const existingOnly: readonly Refusal[] = [
  ["a write through a number", "†state.n.x", 1, "OUTPUT_WRITE_FAILED"],
];

describe.each(snapshotStoreKinds())("a refused engine.set on the $name store", (kind) => {
  let engines: Engine[] = [];
  let opened: SnapshotStore;
  afterEach(async () => {
    for (const engine of engines) await engine.close().catch(() => undefined);
    engines = [];
  });
  const engineOf = (options: Pick<EngineOptions, "stateSchema"> = {}): Engine => {
    const engine = createEngine({
      tools: [echo],
      store: opened.store,
      limits: { maxValueBytes: 100 },
      ...options,
    });
    engines.push(engine);
    return engine;
  };
  /** An engine with the schema, on a store whose thread `t` holds two values written by `set`. */
  const prepared = async (): Promise<Engine> => {
    opened = kind.open();
    const engine = engineOf({ stateSchema });
    await engine.set("t", "†state.count", 1);
    await engine.set("t", "†state.n", 5);
    await engine.set("t", "†state.list", [1]);
    return engine;
  };
  const setIds = async (engine: Engine): Promise<string[]> =>
    (await engine.store.listCallRecords(asRunId("obelisk.set"))).map((record) => record.callId);

  it.each([...refusals, ...existingOnly])(
    "%s leaves a thread the store holds exactly as it was",
    async (_name, reference, value, code) => {
      const engine = await prepared();
      const before = await opened.snapshot(THREADS);
      expect(await codeOf(engine.set("t", reference, value))).toBe(code);
      expect(await opened.snapshot(THREADS)).toBe(before);
    },
  );

  it.each(refusals)("%s creates no thread", async (_name, reference, value, code) => {
    const engine = await prepared();
    const before = await opened.snapshot(THREADS);
    expect(await codeOf(engine.set("fresh", reference, value))).toBe(code);
    expect(await opened.snapshot(THREADS)).toBe(before);
    expect(await engine.store.getThread(asThreadId("fresh"))).toBeUndefined();
  });

  it.each([42, { text: "x" }, ["x"], null])(
    "a description that is not a string (%j) is USAGE: nothing stored, and summaries still answer",
    async (description) => {
      const engine = await prepared();
      const before = await opened.snapshot(THREADS);
      for (const thread of THREADS) {
        await expect(engine.set(thread, "†state.count", 2, { description } as never)).rejects.toMatchObject({
          code: "USAGE",
          message: expect.stringContaining("description must be a string"),
        });
      }
      expect(await opened.snapshot(THREADS)).toBe(before);
      expect((await engine.summarize("t")).entries).toHaveLength(3);
    },
  );

  it("takes no call number: the next set and the next automatic call ids follow on", async () => {
    const engine = await prepared();
    for (const [, reference, value] of [...refusals, ...existingOnly])
      await engine.set("t", reference, value).catch(() => undefined);
    await engine.set("t", "†state.count", 2);
    expect(await setIds(engine)).toEqual([
      "obelisk-set$1",
      "obelisk-set$2",
      "obelisk-set$3",
      "obelisk-set$4",
    ]);
    const run = await engine.run([{ _tool: "echo", value: 1 }], { threadId: "t" });
    expect(Object.keys(run.calls)).toEqual(["echo$5"]);
  });

  it("a store without nextCallNumber still takes sets, numbered as before", async () => {
    opened = kind.open();
    const store = new Proxy(opened.store, {
      get: (target, key) => {
        if (key === "nextCallNumber") return undefined;
        const value = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const engine = createEngine({ tools: [], store, stateSchema });
    engines.push(engine);
    await engine.set("t", "†state.count", 1);
    expect(await codeOf(engine.set("fresh", "†state.count", -1))).toBe("OUTPUT_SCHEMA_VIOLATION");
    expect(await engine.store.getThread(asThreadId("fresh"))).toBeUndefined();
    await engine.set("t", "†state.count", 2);
    expect(await setIds(engine)).toEqual(["obelisk-set$1", "obelisk-set$2"]);
  });

  it("a set refused on a thread it would give the engine's state schema leaves the thread's schema", async () => {
    opened = kind.open();
    await engineOf().set("t", "†state.count", 1);
    const withSchema = engineOf({ stateSchema });
    const before = await opened.snapshot(THREADS);
    expect(await codeOf(withSchema.set("t", "†state.count", -1))).toBe("OUTPUT_SCHEMA_VIOLATION");
    expect(await opened.snapshot(THREADS)).toBe(before);
    expect((await withSchema.store.getThread(asThreadId("t")))?.stateSchema).toBeUndefined();
    // accepted, the write gives the thread the schema, as a run would
    await withSchema.set("t", "†state.count", 2);
    expect((await withSchema.store.getThread(asThreadId("t")))?.stateSchema).toEqual(stateSchema);
    expect(await codeOf(engineOf().set("t", "†state.count", -1))).toBe("OUTPUT_SCHEMA_VIOLATION");
  });

  it("an accepted set on a new thread creates it with the engine's schema and the first number", async () => {
    const engine = await prepared();
    await engine.set("fresh", "†state.approvals.deploy", true);
    expect((await engine.store.getThread(asThreadId("fresh")))?.stateSchema).toEqual(stateSchema);
    expect(await engine.get("fresh", "†state.approvals")).toEqual({ found: true, value: { deploy: true } });
    expect(await engine.store.nextCallNumber?.(asThreadId("fresh"))).toBe(2);
  });
});

describe.each(snapshotStoreKinds())("reset and keepLastN on the $name store", (kind) => {
  let engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines) await engine.close().catch(() => undefined);
    engines = [];
  });
  /** A store whose thread `t` holds two values, written by an engine without a schema; an engine with one. */
  const prepared = async (): Promise<{ engine: Engine; opened: SnapshotStore }> => {
    const opened = kind.open();
    const first = createEngine({ tools: [], store: opened.store });
    await first.set("t", "†state.a", 1);
    await first.set("t", "†state.b", 2);
    const engine = createEngine({ tools: [], store: opened.store, stateSchema });
    engines.push(first, engine);
    return { engine, opened };
  };

  it.each([-1, 1.5, Number.NaN, "2", null, undefined])(
    "keepLastN(%s) is USAGE and changes no thread, held or not",
    async (n) => {
      const { engine, opened } = await prepared();
      const before = await opened.snapshot(THREADS);
      for (const thread of THREADS) {
        await expect(engine.keepLastN(thread, n as number)).rejects.toMatchObject({
          code: "USAGE",
          hint: "keepLastN(0) evicts every variable; keepLastN(Infinity) keeps them all",
        });
      }
      expect(await opened.snapshot(THREADS)).toBe(before);
    },
  );

  it("reset and keepLastN of a thread the store does not hold do nothing and do not create it", async () => {
    const { engine, opened } = await prepared();
    const before = await opened.snapshot(THREADS);
    await engine.reset("fresh");
    expect(await engine.keepLastN("fresh", 0)).toEqual({ kept: 0, evicted: 0 });
    expect(await opened.snapshot(THREADS)).toBe(before);
    expect(await engine.store.getThread(asThreadId("fresh"))).toBeUndefined();
  });

  it("keepLastN and reset of a held thread still evict and clear", async () => {
    const { engine } = await prepared();
    expect(await engine.keepLastN("t", 1)).toEqual({ kept: 1, evicted: 1 });
    expect(await engine.keepLastN("t", Number.POSITIVE_INFINITY)).toEqual({ kept: 1, evicted: 0 });
    await engine.reset("t");
    expect(await engine.get("t", "†state")).toEqual({ found: true, value: {} });
  });
});
