import { describe, expect, it, vi } from "vitest";
import { commitOk, THREAD, write } from "../conformance/commit-fixtures.js";
import { createMemoryStore } from "../memory-store.js";
import { describeValue } from "./describe-value.js";

const KEYS = 5_000;

describe("an assign into a large object variable", () => {
  it("measures the members it adds or replaces, not the object: same facts as describeValue", async () => {
    const store = createMemoryStore();
    const index = Object.fromEntries(Array.from({ length: KEYS }, (_, id) => [`k${id}`, { id }]));
    await commitOk(store, { callId: "c0", writes: [write(["index"], index)] });
    const writes = [
      { n1: { a: [1, 2] } },
      { k7: "replaced", n2: null },
      { k8: { id: 8, more: "é✓" }, n1: 3 },
      {},
    ];
    for (const [at, value] of writes.entries()) {
      const keys = vi.spyOn(Object, "keys");
      try {
        await commitOk(store, { callId: `a${at}`, writes: [write(["index"], value, "assign")] });
        // the object's size was walked (each member's keys listed) and its keys listed for the count
        expect(keys.mock.calls.length).toBeLessThan(50);
      } finally {
        keys.mockRestore();
      }
      const state = await store.readState(THREAD);
      const meta = (await store.listVariables(THREAD)).find(
        (variable) => variable.reference === "†state.index",
      );
      const { type, bytes, count, countUnit, preview } = meta ?? {};
      expect({ type, bytes, count, countUnit, preview }).toEqual(describeValue(state.index as never));
    }
    expect((await store.listVariables(THREAD))[0]).toMatchObject({ count: KEYS + 2 });
  });
});
