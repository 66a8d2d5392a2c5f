import { afterEach, describe, expect, it, vi } from "vitest";
import { commitOk, THREAD, write } from "../conformance/commit-fixtures.js";
import { createMemoryStore } from "../memory-store.js";
import { describeValue } from "./describe-value.js";

const ITEMS = 5_000;

/** How many objects' keys a commit lists (`jsonByteSize` lists each object it walks). */
async function keysListedBy(run: () => Promise<void>): Promise<number> {
  const keys = vi.spyOn(Object, "keys");
  try {
    await run();
    return keys.mock.calls.length;
  } finally {
    keys.mockRestore();
  }
}

describe("a write below a large variable", () => {
  afterEach(() => vi.restoreAllMocks());

  it("costs what it writes, not the variables above it: their size and count move by the write's delta", async () => {
    const store = createMemoryStore();
    const list = Array.from({ length: ITEMS }, (_, id) => ({ id, name: "x" }));
    await commitOk(store, { callId: "c0", writes: [write(["db"], { list, other: {} })] });
    await commitOk(store, { callId: "c1", writes: [write(["db", "list"], { id: -1, name: "y" }, "push")] });
    const writes = [
      write(["db", "other", "key"], { a: [1, 2] }),
      write(["db", "list", 17], { id: 17, name: "changed" }),
      write(["db", "list"], { id: -2, name: "z" }, "push"),
      write(["db", "list", ITEMS + 2], { id: -3 }),
      write(["db", "more"], [1], "concat"),
    ];
    for (const [index, written] of writes.entries()) {
      // the walk of †state.db listed every item's keys: 5,000 and more per write
      const listed = await keysListedBy(() => commitOk(store, { callId: `w${index}`, writes: [written] }));
      expect(listed).toBeLessThan(50);
    }
    const state = await store.readState(THREAD);
    const variables = await store.listVariables(THREAD);
    for (const reference of ["†state.db", "†state.db.list"]) {
      const meta = variables.find((variable) => variable.reference === reference);
      const value = reference === "†state.db" ? state.db : (state.db as { list: unknown }).list;
      const { type, bytes, count, countUnit, preview } = meta ?? {};
      expect({ type, bytes, count, countUnit, preview }).toEqual(describeValue(value as never));
    }
    expect(variables.find((variable) => variable.reference === "†state.db")).toMatchObject({
      bytes: JSON.stringify(state.db).length,
      count: 3,
    });
  });
});
