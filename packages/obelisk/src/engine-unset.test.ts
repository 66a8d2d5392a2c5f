import type { StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it } from "vitest";
import { codeOf } from "./__fixtures__/error-codes.js";
import { type SnapshotStore, snapshotStoreKinds } from "./__fixtures__/snapshot-stores.js";
import { asRunId, asThreadId, createEngine, defineTool, type Engine } from "./index.js";

const THREADS = ["t", "fresh"];
const stateSchema = { type: "object", required: ["count"], properties: { count: { type: "integer" } } };
const echo = defineTool({
  name: "echo",
  input: { type: "object", properties: { value: {} } },
  run: (args) => (args as { value: unknown }).value,
});
/** A call gated on the refund approval (it passes the approval on, as a gated tool should check it). */
const refund = (id: string) => ({
  _tool: "echo",
  _id: id,
  value: "†state.approvals.refund",
  _outputPath: `†state.done.${id}`,
});

describe.each(snapshotStoreKinds())("engine.unset on the $name store", (kind) => {
  let engines: Engine[] = [];
  let opened: SnapshotStore;
  afterEach(async () => {
    for (const engine of engines) await engine.close().catch(() => undefined);
    engines = [];
  });
  const engineOf = (store: StateStore = opened.store, schema?: object): Engine => {
    const engine = createEngine({
      tools: [echo],
      store,
      ...(schema === undefined ? {} : { stateSchema: schema as never }),
    });
    engines.push(engine);
    return engine;
  };
  /** Thread `t` holds `count`, an approval and an object written whole, under the schema. */
  const prepared = async (): Promise<Engine> => {
    opened = kind.open();
    const engine = engineOf(opened.store, stateSchema);
    await engine.set("t", "†state.count", 1);
    await engine.set("t", "†state.approvals.refund", { orderId: "o1", by: "ops" });
    await engine.set("t", "†state.settings", { mode: "fast", list: [1, 2] });
    return engine;
  };

  it("revokes an approval: a later call reading it waits at the gate again", async () => {
    const engine = await prepared();
    const first = await engine.run([refund("r1")], { threadId: "t" });
    expect(first.calls.r1?.status).toBe("succeeded");
    expect(await engine.unset("t", "†state.approvals.refund")).toEqual({
      removed: true,
      variables: ["†state.approvals.refund"],
    });
    expect(await engine.get("t", "†state.approvals")).toEqual({ found: false });
    await expect(engine.get("t", "†state.approvals.refund")).rejects.toMatchObject({
      code: "REF_EVICTED",
      data: { reason: "unset" },
    });
    expect((await engine.summarize("t")).entries.map((entry) => entry.reference)).not.toContain(
      "†state.approvals.refund",
    );
    const second = await engine.run([refund("r2")], { threadId: "t" });
    expect(second.calls.r2?.status).toBe("waiting");
    // the same plan sent again waits too (its record is not reused: the approval it read is gone)
    expect((await engine.run([refund("r1")], { threadId: "t" })).calls.r1?.status).toBe("waiting");
    expect(await engine.get("t", "†state.done.r1")).toMatchObject({ found: true });
    // given again, the gate opens again
    await engine.set("t", "†state.approvals.refund", { orderId: "o2", by: "ops" });
    expect((await engine.run([refund("r3")], { threadId: "t" })).calls.r3?.status).toBe("succeeded");
  });

  it("is numbered from the thread's counter, like set: the next set and run ids follow on", async () => {
    const engine = await prepared();
    await engine.unset("t", "†state.approvals.refund");
    await engine.set("t", "†state.n", 1);
    const records = await engine.store.listCallRecords(asRunId("obelisk.unset"));
    expect(records.map((record) => [record.callId, record.tool])).toEqual([
      ["obelisk-unset$4", "obelisk.unset"],
    ]);
    expect(
      (await engine.store.listCallRecords(asRunId("obelisk.set"))).map((record) => record.callId),
    ).toContain("obelisk-set$5");
    const run = await engine.run([{ _tool: "echo", value: 1 }], { threadId: "t" });
    expect(Object.keys(run.calls)).toEqual(["echo$6"]);
  });

  it("a path that holds nothing answers removed: false and changes nothing (no thread created)", async () => {
    const engine = await prepared();
    await engine.unset("t", "†state.approvals.refund");
    const before = await opened.snapshot(THREADS);
    for (const reference of ["†state.approvals.refund", "†state.approvals.other", "†state.nothing.here"])
      expect(await engine.unset("t", reference)).toEqual({ removed: false, variables: [] });
    expect(await engine.unset("fresh", "†state.approvals.refund")).toEqual({ removed: false, variables: [] });
    expect(await opened.snapshot(THREADS)).toBe(before);
    expect(await engine.store.getThread(asThreadId("fresh"))).toBeUndefined();
  });

  it.each([
    ["a path inside a variable's value", "†state.settings.mode", "USAGE"],
    ["a value the state schema requires", "†state.count", "OUTPUT_SCHEMA_VIOLATION"],
  ] as const)(
    "%s is refused on the thread holding it (%s) and changes nothing",
    async (_name, reference, code) => {
      const engine = await prepared();
      const before = await opened.snapshot(THREADS);
      expect(await codeOf(engine.unset("t", reference))).toBe(code);
      expect(await opened.snapshot(THREADS)).toBe(before);
    },
  );

  it.each([
    ["the whole state", "†state", "USAGE"],
    ["a negative index", "†state.settings.list[-1]", "USAGE"],
    ["a stored call output", "†calls.c1", "OUTPUT_PATH_READONLY"],
    ["a kind that is not stored", "†input.x", "OUTPUT_PATH_READONLY"],
    ["a malformed reference", "†state.a b", "REF_SYNTAX"],
    ["a reference without its dagger", "state.count", "REF_SYNTAX"],
    ["a reference that is no string", 42, "USAGE"],
  ] as const)("%s is refused on any thread (%s) and changes nothing", async (_name, reference, code) => {
    const engine = await prepared();
    const before = await opened.snapshot(THREADS);
    for (const thread of THREADS) expect(await codeOf(engine.unset(thread, reference as string))).toBe(code);
    expect(await opened.snapshot(THREADS)).toBe(before);
  });

  it("a thread id that is no string is USAGE", async () => {
    const engine = await prepared();
    expect(await codeOf(engine.unset(7 as never, "†state.count"))).toBe("USAGE");
  });

  it("a store without removeNumbered refuses with USAGE, changing nothing", async () => {
    await prepared();
    const store = new Proxy(opened.store, {
      get: (target, key) => {
        if (key === "removeNumbered") return undefined;
        const value = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const before = await opened.snapshot(THREADS);
    expect(await codeOf(engineOf(store).unset("t", "†state.approvals.refund"))).toBe("USAGE");
    expect(await opened.snapshot(THREADS)).toBe(before);
  });
});
