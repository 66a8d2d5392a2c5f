import { describe, expect, it } from "vitest";
import type { StateStore } from "../store-types.js";
import { getValue } from "../variables/get-value.js";
import { commitOf, commitOk, foldedLog, manualClock, THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";

/** Each listed variable's value read by its reference, with its preview (they must agree). */
async function listedValues(store: StateStore): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  for (const meta of await store.listVariables(THREAD)) {
    const read = await getValue(store, THREAD, meta.reference);
    values[meta.reference] = "value" in read ? [read.value, meta.preview] : read;
  }
  return values;
}

/** Eviction batches: array holes, the state schema, tombstones superseded by later writes, large batches. */
export function evictionCases(openStore: OpenStore): void {
  describe("eviction", () => {
    it("evicting an array element leaves a hole (null): no other element moves (review 7 H1)", async () => {
      const store = await openStore();
      for (const [index, value] of ["first", "second", "third"].entries())
        await commitOk(store, { callId: `c${index}`, writes: [write(["items", index], value)] });
      await store.applyRetention(THREAD, { maxVariables: 2 }, new Date());
      expect(await store.readState(THREAD)).toEqual({ items: [null, "second", "third"] });
      expect(await listedValues(store)).toEqual({
        "†state.items[2]": ["third", '"third"'],
        "†state.items[1]": ["second", '"second"'],
      });
      expect(await store.getTombstone(THREAD, "†state.items[0]")).toMatchObject({ reason: "maxVariables" });
      // reading the hole answers REF_EVICTED, its neighbours their own values
      await expect(getValue(store, THREAD, "†state.items[0]")).rejects.toMatchObject({ code: "REF_EVICTED" });
      await expect(getValue(store, THREAD, "†state.items[-3]")).rejects.toMatchObject({
        code: "REF_EVICTED",
      });
      expect(await getValue(store, THREAD, "†state.items[1]")).toEqual({ found: true, value: "second" });
      // a second eviction takes the value of the variable it evicts, not its neighbour's
      await store.keepLastN(THREAD, 1);
      expect(await store.readState(THREAD)).toEqual({ items: [null, null, "third"] });
      expect(await listedValues(store)).toEqual({ "†state.items[2]": ["third", '"third"'] });
      expect(await foldedLog(store)).toEqual(await store.readState(THREAD));
      // the last element goes: an array of holes only was only a parent and goes too
      await store.keepLastN(THREAD, 0);
      expect(await store.readState(THREAD)).toEqual({});
      expect(await foldedLog(store)).toEqual({});
    });

    it("a written null stays content: an array holding it and holes is kept", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "a", writes: [write(["l", 0], "x")] });
      await commitOk(store, { callId: "b", writes: [write(["l", 1], null)] });
      await store.keepLastN(THREAD, 1);
      expect(await store.readState(THREAD)).toEqual({ l: [null, null] });
      expect(await getValue(store, THREAD, "†state.l[1]")).toEqual({ found: true, value: null });
      await expect(getValue(store, THREAD, "†state.l[0]")).rejects.toMatchObject({ code: "REF_EVICTED" });
      expect(await foldedLog(store)).toEqual(await store.readState(THREAD));
    });

    it("never evicts what the state schema requires; the rest of the batch goes (review 7 H4)", async () => {
      const store = await openStore();
      const schema = {
        type: "object",
        required: ["a"],
        properties: { a: { type: "number" }, list: { type: "array", items: { type: "string" } } },
        additionalProperties: true,
      };
      await store.openThread(THREAD, { stateSchema: schema });
      await commitOk(store, { callId: "a", writes: [write(["a"], 1)] });
      await commitOk(store, { callId: "l0", writes: [write(["list", 0], "x")] });
      await commitOk(store, { callId: "l1", writes: [write(["list", 1], "y")] });
      await commitOk(store, { callId: "b", writes: [write(["b"], 1)] });
      await store.keepLastN(THREAD, 2);
      // a is required and stays; evicting list[0] alone leaves a hole `items: {type: string}` refuses: it stays
      expect(await store.readState(THREAD)).toEqual({ a: 1, list: ["x", "y"], b: 1 });
      expect((await store.listVariables(THREAD)).map((meta) => meta.reference).sort()).toEqual([
        "†state.a",
        "†state.b",
        "†state.list[0]",
        "†state.list[1]",
      ]);
      // both elements may go together (the list, only their parent, goes with them)
      await store.keepLastN(THREAD, 1);
      expect(await store.readState(THREAD)).toEqual({ a: 1, b: 1 });
      expect(await store.getTombstone(THREAD, "†state.list[1]")).toMatchObject({ reason: "keepLastN" });
      // the thread stays writable
      await commitOk(store, { callId: "c", writes: [write(["c"], 1)] });
      await commitOk(store, { callId: "b2", writes: [write(["b"], 2)] });
      expect(await foldedLog(store)).toEqual(await store.readState(THREAD));
    });

    it("keeps a required parent its evicted child created, and evicts freely on a schema that allows it", async () => {
      const store = await openStore();
      await store.openThread(THREAD, {
        stateSchema: { type: "object", required: ["profile"], properties: { profile: { type: "object" } } },
      });
      await commitOk(store, { callId: "p", writes: [write(["profile", "name"], "Ada")] });
      await commitOk(store, { callId: "x", writes: [write(["x"], 1)] });
      await commitOk(store, { callId: "y", writes: [write(["y"], 1)] });
      await store.applyRetention(THREAD, { maxVariables: 1 }, new Date());
      expect(await store.readState(THREAD)).toEqual({ profile: { name: "Ada" }, y: 1 });
      expect(await store.getTombstone(THREAD, "†state.x")).toMatchObject({ reason: "maxVariables" });
      expect(await store.getTombstone(THREAD, "†state.profile.name")).toBeUndefined();
    });

    it("a write below an evicted path clears the tombstones it supersedes (review 7 L2)", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "p", writes: [write(["p"], { x: 1 })] });
      await store.keepLastN(THREAD, 0);
      await expect(getValue(store, THREAD, "†state.p.x")).rejects.toMatchObject({ code: "REF_EVICTED" });
      await commitOk(store, { callId: "q", writes: [write(["p", "y"], 5)] });
      expect(await getValue(store, THREAD, "†state.p")).toEqual({ found: true, value: { y: 5 } });
      expect(await store.getTombstone(THREAD, "†state.p")).toBeUndefined();
      expect(await getValue(store, THREAD, "†state.p.x")).toEqual({ found: false });
    });

    it("evicts a large batch in one change: hundreds of siblings, one array, the log still folds (review 7 M5)", async () => {
      const clock = manualClock();
      const store = await openStore({ now: clock.now });
      const writes = Array.from({ length: 500 }, (_, index) => write([`k${index}`], index));
      const items = Array.from({ length: 500 }, (_, index) => write(["items", index], index));
      expect((await store.commitCall(commitOf({ callId: "w", writes: [...writes, ...items] }))).ok).toBe(
        true,
      );
      const before = (await store.readWriteLog(THREAD)).length;
      await store.keepLastN(THREAD, 3);
      expect(await store.readState(THREAD)).toEqual({
        items: [...Array.from({ length: 497 }, () => null), 497, 498, 499],
      });
      expect(await store.listVariables(THREAD)).toHaveLength(3);
      // one unset entry per evicted variable, none per empty parent here (the array still holds three)
      expect((await store.readWriteLog(THREAD)).length - before).toBe(997);
      expect(await foldedLog(store)).toEqual(await store.readState(THREAD));
    });
  });
}
