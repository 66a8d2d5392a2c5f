import { applyOutput, type JsonObject, type JsonValue, type OutputMethod, type Path } from "@obelisk/core";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commitOk, THREAD, write } from "../conformance/commit-fixtures.js";
import { createMemoryStore } from "../memory-store.js";
import { createSqliteStore } from "../sqlite-store.js";
import type { StateStore } from "../store-types.js";

const ITEMS = 5_000;

/** Each store, and how many random write sequences its property runs (SQLite's are slower to open). */
const stores: [string, () => StateStore, number][] = [
  ["memory", () => createMemoryStore(), 150],
  ["SQLite :memory:", () => createSqliteStore(":memory:"), 60],
];

/** How many values `Object.isFrozen` is asked about while `run` runs (the freeze walk asks one per node). */
async function frozenChecksOf(run: () => Promise<unknown>): Promise<number> {
  const checks = vi.spyOn(Object, "isFrozen");
  try {
    await run();
    return checks.mock.calls.length;
  } finally {
    checks.mockRestore();
  }
}

/** The paths of the containers of a value that are not frozen. */
function unfrozen(value: unknown, at = ""): string[] {
  if (typeof value !== "object" || value === null) return [];
  const own = Object.isFrozen(value) ? [] : [at || "/"];
  return own.concat(...Object.entries(value).map(([key, child]) => unfrozen(child, `${at}/${key}`)));
}

describe.each(stores)("reading the state after writes (%s)", (_name, open) => {
  afterEach(() => vi.restoreAllMocks());

  it("freezes what was appended to a large list or merged into a large object, not the rest of it", async () => {
    const store = open();
    const list = Array.from({ length: ITEMS }, (_, id) => ({ id }));
    const byId = Object.fromEntries(list.map((item) => [`k${item.id}`, item]));
    await commitOk(store, {
      callId: "c0",
      writes: [write(["log"], list), write(["db"], { list }), write(["index"], { byId })],
    });
    await store.readState(THREAD);
    for (let tick = 1; tick <= 3; tick++) {
      await commitOk(store, { callId: `p${tick}`, writes: [write(["log"], { id: -tick }, "push")] });
      await commitOk(store, {
        callId: `q${tick}`,
        writes: [write(["db", "list"], [{ a: [tick] }], "concat")],
      });
      // a shallow and a deep merge into a 5,000-key object
      await commitOk(store, {
        callId: `m${tick}`,
        writes: [write(["index", "byId"], { [`n${tick}`]: {} }, "assign")],
      });
      await commitOk(store, {
        callId: `d${tick}`,
        writes: [write(["index"], { byId: { k7: { tick } } }, "merge")],
      });
      // a write above an append, then the append, between two reads
      await commitOk(store, { callId: `r${tick}`, writes: [write(["doc"], { list })] });
      await commitOk(store, { callId: `s${tick}`, writes: [write(["doc", "list"], tick, "push")] });
      // the walk of the appended lists asked about each of their 5,000 items
      let state: JsonObject = {};
      const checks = await frozenChecksOf(async () => {
        state = await store.readState(THREAD);
      });
      expect(checks).toBeLessThan(50);
      expect(unfrozen(state)).toEqual([]);
      expect((state.log as unknown[]).length).toBe(ITEMS + tick);
      expect((state.db as { list: unknown[] }).list.at(-1)).toEqual({ a: [tick] });
      expect((state.index as { byId: Record<string, unknown> }).byId).toMatchObject({ k7: { id: 7, tick } });
    }
    await store.close();
  });

  it("asks Object.isFrozen nothing at a read with nothing written since the last (it walks a large root)", async () => {
    const store = open();
    await commitOk(store, { callId: "c0", writes: [write(["a"], { b: [1] }), write(["n"], 1)] });
    const first = await store.readState(THREAD);
    const isFrozen = vi.spyOn(Object, "isFrozen");
    const again = await store.readState(THREAD);
    expect(isFrozen.mock.calls.map(([value]) => value)).not.toContain(first);
    isFrozen.mockRestore();
    expect(again).toBe(first);
    expect(unfrozen(again)).toEqual([]);
    // the next write still leaves the snapshot as it was
    await commitOk(store, { callId: "c1", writes: [write(["n"], 2)] });
    expect(first).toEqual({ a: { b: [1] }, n: 1 });
    expect(await store.readState(THREAD)).toEqual({ a: { b: [1] }, n: 2 });
    await store.close();
  });

  it("looks up none of the scalars set at top-level keys since the last read", async () => {
    const store = open();
    await commitOk(store, { callId: "c0", writes: [write(["list"], [1, 2])] });
    await store.readState(THREAD);
    for (let at = 0; at < 1_000; at++)
      await commitOk(store, { callId: `s${at}`, writes: [write([`n${at}`], at % 2 === 0 ? at : `v${at}`)] });
    await commitOk(store, { callId: "p", writes: [write(["list"], { id: 3 }, "push")] });
    const lookups = vi.spyOn(Object, "hasOwn");
    const state = await store.readState(THREAD);
    // the push's target is found (one lookup), each scalar was not remembered (1,000 lookups before)
    expect(lookups.mock.calls.length).toBeLessThan(10);
    lookups.mockRestore();
    expect(unfrozen(state)).toEqual([]);
    expect(state.n998).toBe(998);
    expect(state.list).toEqual([1, 2, { id: 3 }]);
  });

  it("lists no keys of a new thread's state at its first read after scalars set at top-level keys", async () => {
    const store = open();
    for (let at = 0; at < 1_000; at++)
      await commitOk(store, { callId: `s${at}`, writes: [write([`n${at}`], at % 2 === 0 ? at : `v${at}`)] });
    const keys = vi.spyOn(Object, "keys");
    const state = await store.readState(THREAD);
    // the new thread's empty state was frozen: only the root is (its 1,000 keys were listed before)
    const listed = keys.mock.results.reduce((sum, { value }) => sum + (value as unknown[]).length, 0);
    keys.mockRestore();
    expect(listed).toBeLessThan(10);
    expect(unfrozen(state)).toEqual([]);
    expect(state.n998).toBe(998);
  });

  it("freezes every list a run appended to several times, and items set by index", async () => {
    const store = open();
    await commitOk(store, { callId: "c0", writes: [write(["log"], [{ n: 0 }])] });
    const first = await store.readState(THREAD);
    await commitOk(store, { callId: "c1", writes: [write(["log"], { n: 1 }, "push")] });
    await commitOk(store, { callId: "c2", writes: [write(["log"], [{ n: 2 }, { n: [3] }], "concat")] });
    await commitOk(store, { callId: "c3", writes: [write(["log", 0], { m: {} }, "merge")] });
    await commitOk(store, { callId: "c4", writes: [write(["log", 1, "deep", "er"], [4])] });
    const second = await store.readState(THREAD);
    expect(unfrozen(second)).toEqual([]);
    expect(second).toEqual({ log: [{ n: 0, m: {} }, { n: 1, deep: { er: [4] } }, { n: 2 }, { n: [3] }] });
    expect(first).toEqual({ log: [{ n: 0 }] });
    await store.close();
  });
});

const segment = fc.oneof(fc.constantFrom("a", "b"), fc.integer({ min: 0, max: 2 }));
const written: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.integer({ min: 0, max: 9 }),
  fc.integer({ min: 0, max: 9 }).map((n) => [n, { k: [n] }]),
  fc.integer({ min: 0, max: 9 }).map((n) => ({ k: n, o: { p: [n] } })),
);
const step = fc.oneof(
  fc.record({
    path: fc.tuple(fc.constantFrom("x", "y"), fc.oneof(fc.constant([]), fc.array(segment, { maxLength: 2 }))),
    method: fc.constantFrom<OutputMethod>("set", "push", "concat", "merge", "assign", "push", "push"),
    value: written,
  }),
  fc.constant("read" as const),
);

describe.each(stores)("a write below an earlier write's target (%s)", (_name, open) => {
  it("leaves nothing the earlier write made unfrozen (set y, merge into y, set y.a: y.o was left unfrozen)", async () => {
    const store = open();
    const steps: [Path, OutputMethod, JsonValue][] = [
      [["y"], "set", { k: 0, o: { p: [0] } }],
      [["y"], "merge", { k: 0, o: { p: [0] } }],
      [["y", "a"], "set", [0, { k: [0] }]],
    ];
    for (const [at, [path, method, value]] of steps.entries()) {
      const record = {
        threadId: THREAD,
        runId: "run-1",
        callId: `c${at}`,
        tool: "tool",
        status: "succeeded",
      };
      const result = await store.commitCall({
        record: { ...record, attempts: 1, outputMethod: method, wrote: [] } as never,
        writes: [write(path, value, method)],
      });
      expect(result.ok).toBe(true);
    }
    const state = await store.readState(THREAD);
    expect(unfrozen(state)).toEqual([]);
    expect(state).toEqual({ y: { k: 0, o: { p: [0] }, a: [0, { k: [0] }] } });
    await store.close();
  });
});

describe.each(stores)("snapshots of random writes (%s)", (_name, open, numRuns) => {
  it("each read is deeply frozen, equals the fold of the writes, and earlier reads never change", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 24 }), async (steps) => {
        const store = open();
        let expected: JsonValue = {};
        const reads: [JsonObject, string][] = [];
        let n = 0;
        for (const item of steps) {
          if (item === "read") {
            const state = await store.readState(THREAD);
            expect(unfrozen(state)).toEqual([]);
            expect(state).toEqual(expected);
            reads.push([state, JSON.stringify(state)]);
            continue;
          }
          const path: Path = [item.path[0], ...item.path[1]];
          const applied = applyOutput(expected, path, item.method, item.value);
          const result = await store.commitCall({
            record: {
              threadId: THREAD,
              runId: "run-1",
              callId: `c${n++}`,
              tool: "tool",
              status: "succeeded",
              attempts: 1,
              outputMethod: item.method,
              wrote: [],
            } as never,
            writes: [write(path, item.value, item.method)],
          });
          expect(result.ok).toBe(applied.ok);
          if (applied.ok) expected = applied.value;
        }
        const last = await store.readState(THREAD);
        expect(unfrozen(last)).toEqual([]);
        expect(last).toEqual(expected);
        for (const [state, text] of reads) expect(JSON.stringify(state)).toBe(text);
        await store.close();
      }),
      { numRuns },
    );
  }, 60_000);
});
